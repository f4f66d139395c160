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
  | "NO_WASM_SIMD"
  | "WASM_LOAD_FAILED";

/** The one error class the package throws. */
export class ZarrCodecError extends Error {
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown });
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
  /** Decodes into `out` (the data type's container, of the decoded size); returns it. */
  decodeInto<T extends DecodedArray | BufferBacked>(bytes: Uint8Array | ArrayBufferView | ArrayBufferLike, out: T): T;
  encode(chunk: { data: BufferBacked; shape?: number[]; stride?: number[] }): Uint8Array;
  computeEncodedSize(decodedByteLength: number): number;
}

export interface PackBitsConfiguration {
  /** How the number of padding bits is framed; default "none". */
  padding_encoding?: "none" | "first_byte" | "last_byte" | null;
  /** Lowest bit kept (0 = least significant); default 0. */
  first_bit?: number | null;
  /** Highest bit kept, inclusive; default N - 1 for an N-bit component. */
  last_bit?: number | null;
}

/** The Zarr v3 `packbits` codec, for every data type of its spec. */
export class PackBitsCodec {
  readonly kind: "array_to_bytes";
  constructor(configuration: PackBitsConfiguration | undefined, meta: ChunkMeta);
  static fromConfig(
    configuration: PackBitsConfiguration | undefined,
    meta: ChunkMeta,
  ): PackBitsCodec;
  decode(bytes: Uint8Array | ArrayBufferView | ArrayBufferLike): Chunk<DecodedArray>;
  /** Decodes into `out` (the data type's container, of the decoded size); returns it. */
  decodeInto<T extends DecodedArray | BufferBacked>(bytes: Uint8Array | ArrayBufferView | ArrayBufferLike, out: T): T;
  encode(chunk: { data: BufferBacked; shape?: number[]; stride?: number[] }): Uint8Array;
  computeEncodedSize(decodedByteLength: number): number;
}

/**
 * numcodecs' PackBits filter (`numcodecs.packbits`): bool chunk in, 1-d
 * uint8 chunk of 1 + ceil(n / 8) out (a padding-count byte, then the bits,
 * most significant first).
 */
export class NumcodecsPackBitsCodec {
  readonly kind: "array_to_array";
  constructor(configuration: Record<string, never> | undefined, meta: ChunkMeta);
  static fromConfig(
    configuration: Record<string, never> | undefined,
    meta: ChunkMeta,
  ): NumcodecsPackBitsCodec;
  getEncodedMeta<M extends ChunkMeta>(meta: M): M & { dataType: "uint8"; shape: [number] };
  decode(chunk: { data: BufferBacked }): Chunk<Uint8Array>;
  /** Decodes into `out` (a Uint8Array or BoolArray of n bools); returns it. */
  decodeInto<T extends Uint8Array | BufferBacked>(chunk: { data: BufferBacked }, out: T): T;
  encode(chunk: { data: BufferBacked; shape?: number[]; stride?: number[] }): Chunk<Uint8Array>;
}

/** float16 bit patterns to exact float32 values (NaN payloads, -0, subnormals kept). */
export function float16ToFloat32(values: Uint16Array): Float32Array;
/** bfloat16 bit patterns to exact float32 values. */
export function bfloat16ToFloat32(values: Uint16Array): Float32Array;
/** float4_e2m1fn bit patterns (low 4 bits of each byte) to float32 values. */
export function float4E2m1fnToFloat32(values: Uint8Array): Float32Array;
/** float6_e2m3fn bit patterns (low 6 bits of each byte) to float32 values. */
export function float6E2m3fnToFloat32(values: Uint8Array): Float32Array;
/** float6_e3m2fn bit patterns (low 6 bits of each byte) to float32 values. */
export function float6E3m2fnToFloat32(values: Uint8Array): Float32Array;

/** Resolves once the wasm module is loaded (needed before direct use). */
export function ready(): Promise<void>;

/** True when this JavaScript engine runs WebAssembly SIMD. */
export function hasWasmSimd(): boolean;

/**
 * Sets "bytes", "endian", "packbits" and "numcodecs.packbits" in a zarrita
 * registry to async loaders of the wasm codecs, keeping the previous `bytes`
 * as the fallback for types the wasm codec does not handle. Returns the
 * registry.
 */
export function register<R extends Map<string, () => Promise<unknown>>>(registry: R): R;
