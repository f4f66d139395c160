// Type declarations for zarr-codecs-wasm.

/** A decoded chunk: values in C order. */
export interface Chunk<D = ArrayLike<unknown>> {
  data: D;
  shape: number[];
  stride: number[];
}

/** A data type: its name, or its object form (numpy.datetime64, ...). */
export type DataTypeName = string | { name: string; configuration?: Record<string, unknown> };

/**
 * What zarrita hands `fromConfig`: the data type (`dataType` from zarrita
 * 0.7, `data_type` from 0.5 and 0.6) and the chunk shape.
 */
export type ChunkMeta =
  | { dataType: DataTypeName; data_type?: DataTypeName; shape: number[] }
  | { data_type: DataTypeName; dataType?: undefined; shape: number[] };

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
  | "VALUE_OUT_OF_RANGE"
  | "UNFILLABLE_CHUNK"
  | "OUT_OF_MEMORY"
  | "DISPOSED"
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
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
  [Symbol.dispose](): void;
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
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
  [Symbol.dispose](): void;
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
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
  [Symbol.dispose](): void;
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

/**
 * Bit patterns of `dataType` (float16, bfloat16, float8_*, float6_*,
 * float4_e2m1fn, or their complex_ forms, parts interleaved) to exact
 * float32 values: a Uint16Array for the 16-bit formats, else a Uint8Array
 * with each pattern in the low bits. Call after ready().
 */
export function widenToFloat32(dataType: string, values: Uint8Array | Uint16Array): Float32Array;

/** Where the .wasm comes from: a URL or string, a Response, bytes, or a compiled module (or a promise or function of one). */
export type WasmSource =
  | string
  | URL
  | Response
  | ArrayBuffer
  | ArrayBufferView
  | WebAssembly.Module
  | Promise<string | URL | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module>
  | (() => unknown);

/**
 * Resolves once the wasm module is loaded (needed before using the classes
 * directly). Without `wasm`, the main entry loads the copy inlined in the
 * package and zarr-codecs-wasm/slim throws NOT_READY unless a module is
 * loaded already. The first successful call wins; after a failure
 * (WASM_LOAD_FAILED) a later call tries again.
 */
export function ready(options?: { wasm?: WasmSource }): Promise<void>;

/** The compiled WebAssembly.Module in use, to post to workers (each then calls ready({ wasm: module })). */
export function compiledWasm(): WebAssembly.Module;

/** True when this JavaScript engine runs WebAssembly SIMD. */
export function hasWasmSimd(): boolean;

/**
 * Sets "bytes", "endian", "packbits" and "numcodecs.packbits" in a zarrita
 * registry (0.5, 0.6 or 0.7) to async loaders of the wasm codecs, keeping
 * the previous `bytes` as the fallback for what the wasm codec does not
 * handle (zarrita's string types, configurations zarrita accepts beyond
 * the spec). Returns the registry.
 */
export function register<R extends Map<string, () => Promise<unknown>>>(registry: R): R;

export interface WithDataTypesOptions {
  /** "float32" (default): narrow floats widened to float32; "bits": their bit patterns as uint8/uint16. */
  floats?: "float32" | "bits";
}

/**
 * A store through which zarrita opens every fixed-size data type of the
 * specs and of zarr-extensions, each presented as a type zarrita knows
 * (README, "Data types"). Needs register(zarr.registry) on the zarrita
 * copy that opens it.
 */
export function withDataTypes<S extends { get: (...args: any[]) => unknown }>(store: S, options?: WithDataTypesOptions): S;

/**
 * The data type as an array's metadata names it (a v3 name or object form;
 * for v2 the dtype string), for an array opened through withDataTypes;
 * undefined where nothing was presented.
 */
export function storedDataType(array: { store?: unknown; path?: string }): DataTypeName | undefined;

/** A status from the wasm core: "OK" or an ErrorCode, with its message. */
export interface Outcome {
  code: "OK" | ErrorCode;
  message: string;
}

/** The embind classes (bindings/bindings.cpp): errors are returned, not thrown; free each with delete(). */
export interface NativeCodec {
  status(): Outcome;
  decodedBytes(): number;
  encodedBytes(): number;
  valueType(): string;
  dataType(): string;
  encodedSizeFor(decodedByteLength: number): number;
  /** Decodes `input` into `output` (exactly decodedBytes() long). */
  decode(input: ArrayBufferView | ArrayBuffer, output: ArrayBufferView | ArrayBuffer): Outcome;
  /** Encodes `input` (decodedBytes() long) into `output` (encodedBytes() long). */
  encode(input: ArrayBufferView | ArrayBuffer, output: ArrayBufferView | ArrayBuffer): Outcome;
  delete(): void;
}

export interface NativeDataTypeInfo extends Outcome {
  name: string;
  typeClass: string;
  componentBits: number;
  componentCount: number;
  containerBytes: number;
  floatFormat: string;
}

/** The low-level API, after ready(): the embind classes themselves. */
export function nativeCodecs(): {
  BytesCodec: new (dataType: string, configuration: object | undefined, shape: number[], presentation: "native" | "float32") => NativeCodec;
  PackBitsCodec: new (dataType: string, configuration: object | undefined, shape: number[], presentation: "native" | "float32") => NativeCodec;
  NumcodecsPackBitsCodec: new (dataType: string, configuration: object | undefined, shape: number[]) => NativeCodec;
  dataTypeInfo(name: string): NativeDataTypeInfo;
};
