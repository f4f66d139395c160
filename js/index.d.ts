// Type declarations for zarr-codecs-wasm.

/** A decoded chunk: values in C order. */
export interface Chunk<D = ArrayLike<unknown>> {
  data: D;
  shape: number[];
  stride: number[];
}

/** What zarrita hands `fromConfig`: the data type and the chunk shape. */
export interface ChunkMeta {
  dataType: string;
  shape: number[];
}

/** The decoded container of every data type (see the README's table). */
export type DecodedArray =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | BigUint64Array
  | BigInt64Array
  | Float32Array
  | Float64Array;

/** Anything with the bytes of a chunk: a TypedArray, zarrita's BoolArray. */
export interface BufferBacked {
  buffer: ArrayBufferLike;
  byteOffset: number;
  byteLength: number;
}

export type ErrorCode =
  | "UNKNOWN_DATA_TYPE"
  | "UNSUPPORTED_DATA_TYPE"
  | "INVALID_CONFIGURATION"
  | "INVALID_METADATA"
  | "INVALID_SHAPE"
  | "INVALID_INPUT"
  | "INVALID_REGISTRY"
  | "SIZE_OVERFLOW"
  | "LENGTH_MISMATCH"
  | "PADDING_MISMATCH"
  | "OUT_OF_MEMORY"
  | "NOT_READY"
  | "NO_WASM_SIMD";

/** The one error class the package throws. */
export class ZarrCodecError extends Error {
  constructor(code: ErrorCode, message: string, options?: ErrorOptions);
  readonly name: "ZarrCodecError";
  readonly code: ErrorCode;
}

export interface BytesConfiguration {
  endian?: "big" | "little" | null;
}

/** The Zarr v3 `bytes` codec (legacy name `endian`). */
export class BytesCodec {
  readonly kind: "array_to_bytes";
  constructor(configuration: BytesConfiguration | undefined, meta: ChunkMeta);
  static fromConfig(
    configuration: BytesConfiguration | undefined,
    meta: ChunkMeta,
  ): BytesCodec;
  decode(bytes: Uint8Array | ArrayBufferView | ArrayBufferLike): Chunk<DecodedArray>;
  encode(chunk: { data: BufferBacked; shape?: number[]; stride?: number[] }): Uint8Array;
  computeEncodedSize(decodedByteLength: number): number;
}

/** Resolves once the wasm module is loaded (needed before direct use). */
export function ready(): Promise<void>;

/** True when this JavaScript engine runs WebAssembly SIMD. */
export function hasWasmSimd(): boolean;

/**
 * Sets the codec names in a zarrita registry to async loaders of the wasm
 * codecs, keeping the previous `bytes` as a fallback. Returns the registry.
 */
export function register<R extends Map<string, () => Promise<unknown>>>(registry: R): R;
