// Type declarations for zarr-codecs-wasm and zarr-codecs-wasm/slim (the two
// entries export the same names). They compile under strict settings with
// any lib from es2020 on, with or without the DOM lib or @types/node: no
// name here needs a global that only those provide (URL, Response,
// WebAssembly, Symbol.dispose, Float16Array). Where such a global would be
// the natural type, a structural one stands in, or a conditional type picks
// it up when the consumer's lib has it.

// ---- data ------------------------------------------------------------------

/**
 * Float16Array where the consumer's lib declares it (esnext): codecs decode
 * float16 into it where the runtime has one, and into Uint16Array bit
 * patterns otherwise. Without such a lib this adds nothing to a union.
 */
type Float16ArrayIfDeclared = typeof globalThis extends { Float16Array: { prototype: infer F } } ? F : never;

/** The container values decode into: one TypedArray per data type (docs/codecs.md, "Decoded containers", lists which). */
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
  | Float64Array
  | Float16ArrayIfDeclared;

/**
 * Anything with the bytes of a chunk: a TypedArray, a DataView, zarrita's
 * BoolArray or UnicodeStringArray. The codecs read `buffer`, `byteOffset`
 * and `byteLength`, nothing else.
 */
export interface BufferBacked {
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly byteLength: number;
}

/** Encoded bytes as the codecs take them: a view (TypedArray, DataView, BoolArray) or a whole (Shared)ArrayBuffer. */
export type BytesInput = BufferBacked | ArrayBufferLike;

/** A chunk as zarrita passes it around: values in C order, with their shape and stride (in elements). */
export interface Chunk<D = DecodedArray> {
  data: D;
  shape: number[];
  stride: number[];
}

/** A chunk handed to `encode`: `shape` and `stride` are not read (the codec has its own). */
export interface ChunkInput {
  data: BufferBacked;
  shape?: readonly number[] | undefined;
  stride?: readonly number[] | undefined;
}

/**
 * zarrita's BoolArray (get gives booleans) or UnicodeStringArray (get gives
 * strings), described by the members every copy of zarrita has.
 */
export interface ZarritaArray<T> extends BufferBacked {
  readonly length: number;
  get(index: number): T;
}

// ---- data types and metadata -----------------------------------------------

/** A Zarr v3 data type: its name ("uint16", "float8_e4m3"), or its object form ({ name: "numpy.datetime64", configuration: { unit, scale_factor } }). */
export type DataTypeName = string | { readonly name: string; readonly configuration?: object | undefined };

/**
 * A Zarr v2 dtype: a numpy array-protocol string ("<u2", ">M8[ms]", "|V4")
 * or a structured dtype, a list of [name, dtype] or [name, dtype, shape]
 * fields.
 */
export type V2Dtype = string | V2DtypeField[];
/** A field of a structured v2 dtype. */
export type V2DtypeField = [name: string, dtype: V2Dtype] | [name: string, dtype: V2Dtype, shape: number[]];

/**
 * What zarrita hands `fromConfig`: the data type (`dataType` from zarrita
 * 0.7, `data_type` from 0.5 and 0.6), the chunk shape, and (zarrita 0.7)
 * the array's fill value, which only n5_default uses.
 */
export type ChunkMeta =
  | { readonly dataType: DataTypeName; readonly data_type?: unknown; readonly shape: readonly number[]; readonly fillValue?: unknown }
  | { readonly data_type: DataTypeName; readonly dataType?: undefined; readonly shape: readonly number[]; readonly fillValue?: unknown };

// ---- errors ----------------------------------------------------------------

/** Every `code` a ZarrCodecError has; stable across releases. */
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
  | "NOT_REGISTERED"
  | "NO_WASM_SIMD"
  | "WASM_LOAD_FAILED"
  | "CODEC_FAILED"
  | "WORKER_FAILED"
  | "CALLBACK_FAILED"
  | "FETCH_FAILED"
  | "INVALID_SELECTION"
  | "NOT_FOUND"
  | "UNKNOWN_CODEC"
  | "CORRUPT_DATA"
  | "CHECKSUM_MISMATCH"
  | "UNSUPPORTED_CODEC";

/**
 * The one error class the package throws. `code` is stable and machine
 * readable; the message names what was expected and what was found.
 */
export declare class ZarrCodecError extends Error {
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown });
  readonly name: "ZarrCodecError";
  readonly code: ErrorCode;
  /** The error this one wraps, where there is one (an engine's CompileError for WASM_LOAD_FAILED, a failed read of an argument). */
  readonly cause?: unknown;
}

// ---- disposal --------------------------------------------------------------

/** `typeof Symbol.dispose` where the consumer's lib declares it (esnext, @types/node), else never. */
type DisposeSymbol = SymbolConstructor extends { readonly dispose: infer S } ? S & symbol : never;

/**
 * `[Symbol.dispose]()`, the same function as `dispose()`, so that
 * `using codec = ...` frees the codec at the end of its block. The method
 * exists at run time wherever the engine has Symbol.dispose; it is declared
 * where the consumer's lib has it, and adds nothing under older libs.
 */
type DisposableIfDeclared = { [K in DisposeSymbol]: () => void };

// ---- codecs ----------------------------------------------------------------

/**
 * fromConfig's options for codecs that can hold narrow floats (float16,
 * bfloat16, float8_*, float6_*, float4_e2m1fn and their complex forms).
 */
export interface CodecOptions {
  /**
   * "bits" (default): narrow floats decode to their bit patterns (Uint8Array,
   * Uint16Array; float16 to Float16Array where the runtime has it) and
   * encode from them; "float32": they decode to a Float32Array, widened
   * exactly, and encode from one, narrowed with the format's rounding (a
   * value the format cannot hold throws VALUE_OUT_OF_RANGE). Other data
   * types are unaffected.
   */
  floats?: "bits" | "float32" | undefined;
}

/** The `bytes` codec's configuration (Zarr v3). */
export interface BytesConfiguration {
  /** Byte order of multi-byte values; required by the spec for them, absent for one-byte types. */
  endian?: "big" | "little" | null | undefined;
}

/**
 * The Zarr v3 `bytes` codec (legacy name `endian`), for every fixed-size
 * data type. Construct after ready(); the wasm side is freed when the
 * codec is collected, or at once by dispose().
 */
export declare class BytesCodec {
  readonly kind: "array_to_bytes";
  constructor(configuration: BytesConfiguration | null | undefined, meta: ChunkMeta);
  static fromConfig(configuration: BytesConfiguration | null | undefined, meta: ChunkMeta, options?: CodecOptions | null): BytesCodec;
  /** Decodes a chunk's bytes. Where decoding is a plain copy (little-endian data), the values may be a view of `bytes` rather than a copy. */
  decode(bytes: BytesInput): Chunk<DecodedArray>;
  /** Decodes into `out` (the data type's container, of the decoded size), allocating nothing; returns `out`. */
  decodeInto<T extends BufferBacked>(bytes: BytesInput, out: T): T;
  /** Encodes `chunk.data` (the data type's container) into fresh bytes; the chunk is never changed. */
  encode(chunk: ChunkInput): Uint8Array;
  /** The encoded size of `decodedByteLength` decoded bytes. */
  computeEncodedSize(decodedByteLength: number): number;
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
}
export interface BytesCodec extends DisposableIfDeclared {}

/** The `packbits` codec's configuration (zarr-extensions). */
export interface PackBitsConfiguration {
  /** How the number of padding bits is framed; default "none". */
  padding_encoding?: "none" | "first_byte" | "last_byte" | null | undefined;
  /** Lowest bit kept (0 = least significant); default 0. */
  first_bit?: number | null | undefined;
  /** Highest bit kept, inclusive; default N - 1 for an N-bit component. */
  last_bit?: number | null | undefined;
}

/** The Zarr v3 `packbits` codec, for every data type of its spec. Construct after ready(). */
export declare class PackBitsCodec {
  readonly kind: "array_to_bytes";
  constructor(configuration: PackBitsConfiguration | null | undefined, meta: ChunkMeta);
  static fromConfig(configuration: PackBitsConfiguration | null | undefined, meta: ChunkMeta, options?: CodecOptions | null): PackBitsCodec;
  decode(bytes: BytesInput): Chunk<DecodedArray>;
  /** Decodes into `out` (the data type's container, of the decoded size), allocating nothing; returns `out`. */
  decodeInto<T extends BufferBacked>(bytes: BytesInput, out: T): T;
  /** Encodes `chunk.data` (the data type's container) into fresh bytes. */
  encode(chunk: ChunkInput): Uint8Array;
  /** The encoded size of `decodedByteLength` decoded bytes. */
  computeEncodedSize(decodedByteLength: number): number;
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
}
export interface PackBitsCodec extends DisposableIfDeclared {}

/** numcodecs' PackBits has no parameters; Zarr v2 metadata may carry numcodecs' own `id`. */
export interface NumcodecsPackBitsConfiguration {
  id?: string | undefined;
}

/**
 * numcodecs' PackBits filter (`numcodecs.packbits`), an array -> array
 * codec: a bool chunk of n values to a 1-d uint8 chunk of 1 + ceil(n / 8)
 * (a padding-count byte, then the bits, most significant first).
 * Construct after ready().
 */
export declare class NumcodecsPackBitsCodec {
  readonly kind: "array_to_array";
  constructor(configuration: NumcodecsPackBitsConfiguration | null | undefined, meta: ChunkMeta);
  static fromConfig(configuration: NumcodecsPackBitsConfiguration | null | undefined, meta: ChunkMeta): NumcodecsPackBitsCodec;
  /** What the next codec sees: `meta` with a 1-d uint8 chunk of 1 + ceil(n / 8) and fill value 0. */
  getEncodedMeta<M extends object>(meta: M): Omit<M, "dataType" | "shape" | "fillValue"> & { dataType: "uint8"; shape: [number]; fillValue: 0 };
  /** Decodes the uint8 chunk into n bools (a Uint8Array of 0 and 1). */
  decode(chunk: { data: BytesInput }): Chunk<Uint8Array>;
  /** Decodes into `out` (a Uint8Array or BoolArray of n bools), allocating nothing; returns `out`. */
  decodeInto<T extends BufferBacked>(chunk: { data: BytesInput }, out: T): T;
  /** Encodes the bool chunk (a Uint8Array or BoolArray) into the uint8 chunk. */
  encode(chunk: ChunkInput): Chunk<Uint8Array>;
  /** The encoded size of `decodedByteLength` decoded bytes. */
  computeEncodedSize(decodedByteLength: number): number;
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
}
export interface NumcodecsPackBitsCodec extends DisposableIfDeclared {}

/**
 * The `n5_default` codec's configuration (zarr-extensions): the inner
 * chain, spelt out. The transpose reverses the axes ([n-1, ..., 0]), the
 * bytes codec is big-endian (its configuration may be left out for
 * one-byte types), and a last, bytes -> bytes codec is the block's
 * compression. Without the transpose (this package's extension, what
 * withN5 presents with axes "reversed"), the chunk's axes are the block
 * header's reversed and the block is not transposed.
 */
export interface N5DefaultConfiguration {
  codecs:
    | readonly [N5Transpose, N5Bytes]
    | readonly [N5Transpose, N5Bytes, N5Compressor]
    | readonly [N5Bytes]
    | readonly [N5Bytes, N5Compressor];
}
/** n5_default's last inner codec, the block's compression (from the zarrita registry). */
export interface N5Compressor {
  readonly name: string;
  readonly configuration?: object | undefined;
}
/** n5_default's first inner codec: a transpose with order [n-1, ..., 0]. */
export interface N5Transpose {
  readonly name: "transpose";
  readonly configuration: { readonly order: readonly number[] };
}
/** n5_default's second inner codec: bytes, big-endian. */
export interface N5Bytes {
  readonly name: "bytes";
  readonly configuration?: { readonly endian?: "big" | undefined } | undefined;
}

/**
 * The `n5_default` codec: an N5 block in "default" mode as a Zarr chunk,
 * padded with the fill value where the block is a truncated boundary
 * block, cropped where it is larger than the chunk. Used directly (after
 * ready()) it takes no compressor; through register(zarr.registry) the
 * compressor comes from that registry. Asynchronous, as the compressor is.
 */
export declare class N5DefaultCodec {
  readonly kind: "array_to_bytes";
  constructor(configuration: N5DefaultConfiguration, meta: ChunkMeta);
  static fromConfig(configuration: N5DefaultConfiguration, meta: ChunkMeta): N5DefaultCodec;
  /** Decodes a whole N5 block (header and values). */
  decode(block: BytesInput): Promise<Chunk<DecodedArray>>;
  /** Encodes the chunk as a mode-0 block of the chunk's shape. */
  encode(chunk: ChunkInput): Promise<Uint8Array>;
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
}
export interface N5DefaultCodec extends DisposableIfDeclared {}

/**
 * The `vlen-bytes` codec (zarr-extensions; numcodecs' VLenBytes), an
 * array -> bytes codec for variable-length bytes (zarr-python 3's
 * "variable_length_bytes", its alias "bytes", zarrita's "v2:object"): a
 * u32 little-endian item count, then per element a u32 little-endian
 * length and its bytes. It takes no configuration. Construct after ready().
 */
export declare class VlenBytesCodec {
  readonly kind: "array_to_bytes";
  constructor(configuration: Record<string, never> | null | undefined, meta: ChunkMeta);
  static fromConfig(configuration: Record<string, never> | null | undefined, meta: ChunkMeta): VlenBytesCodec;
  /**
   * Decodes a chunk (the layout checked in wasm) into one Uint8Array per
   * element, in C order: views into one fresh buffer holding the items'
   * bytes (never the input's), so a kept item keeps that buffer alive
   * (item.slice() keeps its own bytes only).
   */
  decode(bytes: BytesInput): Chunk<Uint8Array[]>;
  /** Encodes one Uint8Array per element (anything else is refused) into fresh bytes. */
  encode(chunk: { data: readonly Uint8Array[]; shape?: readonly number[] | undefined; stride?: readonly number[] | undefined }): Uint8Array;
  /** Frees the wasm side now (it is freed when collected otherwise); later calls throw DISPOSED. */
  dispose(): void;
}
export interface VlenBytesCodec extends DisposableIfDeclared {}

/** The numeric data types cast_value and scale_offset take (their zarr-extensions pages' lists). */
export type NumericDataTypeName =
  | "int2" | "int4" | "int8" | "int16" | "int32" | "int64"
  | "uint2" | "uint4" | "uint8" | "uint16" | "uint32" | "uint64"
  | "float4_e2m1fn" | "float6_e2m3fn" | "float6_e3m2fn" | "float8_e3m4" | "float8_e4m3"
  | "float8_e4m3b11fnuz" | "float8_e4m3fnuz" | "float8_e5m2" | "float8_e5m2fnuz" | "float8_e8m0fnu"
  | "bfloat16" | "float16" | "float32" | "float64";

/** A scalar in the fill-value JSON encoding: a number, a BigInt past 2^53, "NaN", "Infinity", "-Infinity" or a hex code. */
export type JsonScalar = number | bigint | string;

/** cast_value's configuration (zarr-extensions codecs/cast_value). */
export interface CastValueConfiguration {
  data_type: NumericDataTypeName;
  rounding?: "nearest-even" | "towards-zero" | "towards-positive" | "towards-negative" | "nearest-away";
  out_of_range?: "clamp" | "wrap";
  scalar_map?: { encode?: [JsonScalar, JsonScalar][]; decode?: [JsonScalar, JsonScalar][] };
}

/** A chunk of numbers as array -> array codecs pass it (narrow floats as bit codes; 64-bit integers as BigInt). */
export interface NumericChunk {
  data: ArrayLike<number> | ArrayLike<bigint>;
  shape?: readonly number[] | undefined;
  stride?: readonly number[] | undefined;
}

/**
 * The `cast_value` codec (zarr-extensions), an array -> array codec from
 * the array's data type (meta's) to `configuration.data_type`, exact as
 * the page defines it: scalar_map first, the five rounding modes, clamp
 * and wrap, NaN and signed zero kept, errors (VALUE_OUT_OF_RANGE) where no
 * rule applies. The fill zarrita 0.7 gives is cast and must survive the
 * round trip (INVALID_METADATA otherwise). Construct after ready() (float
 * scalars are read by the package's fill-value parser).
 */
export declare class CastValueCodec {
  readonly kind: "array_to_array";
  constructor(configuration: CastValueConfiguration, meta: ChunkMeta);
  static fromConfig(configuration: CastValueConfiguration, meta: ChunkMeta): CastValueCodec;
  /** configuration.data_type: what decode reads and encode writes. */
  readonly encodedDataType: NumericDataTypeName;
  /** The fill cast to data_type, where meta gave a fill (zarrita 0.7). */
  readonly encodedFill: number | bigint | undefined;
  /** zarrita 0.7: the meta the next codec sees (data type and fill after the cast). */
  getEncodedMeta<M extends object>(meta: M): M & { dataType: NumericDataTypeName; fillValue: unknown };
  decode(chunk: NumericChunk): Chunk<ArrayLike<number> | ArrayLike<bigint>>;
  encode(chunk: NumericChunk): Chunk<ArrayLike<number> | ArrayLike<bigint>>;
}

/** scale_offset's configuration: scalars of the array's data type in its fill-value encoding. */
export interface ScaleOffsetConfiguration {
  scale?: JsonScalar;
  offset?: JsonScalar;
}

/**
 * The `scale_offset` codec (zarr-extensions): encode (in - offset) *
 * scale, decode in / scale + offset, in the array's own arithmetic
 * (float32 rounded after each operation, integers exact); a value the
 * type cannot hold is VALUE_OUT_OF_RANGE.
 */
export declare class ScaleOffsetCodec {
  readonly kind: "array_to_array";
  constructor(configuration: ScaleOffsetConfiguration | null | undefined, meta: ChunkMeta);
  static fromConfig(configuration: ScaleOffsetConfiguration | null | undefined, meta: ChunkMeta): ScaleOffsetCodec;
  /** The fill after encode, where meta gave a fill (zarrita 0.7). */
  readonly encodedFill: number | bigint | undefined;
  getEncodedMeta<M extends object>(meta: M): M & { fillValue?: unknown };
  decode(chunk: NumericChunk): Chunk<ArrayLike<number> | ArrayLike<bigint>>;
  encode(chunk: NumericChunk): Chunk<ArrayLike<number> | ArrayLike<bigint>>;
}

// ---- loading ---------------------------------------------------------------

/** A URL object (WHATWG URL, Node's URL): read through its `href`. */
export interface UrlLike {
  readonly href: string;
}

/** A fetch Response: a non-ok one fails with WASM_LOAD_FAILED naming its status. */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  clone(): ResponseLike;
  arrayBuffer(): PromiseLike<ArrayBuffer>;
}

declare const wasmModule: unique symbol;

/**
 * A compiled WebAssembly.Module. WebAssembly's types come from the DOM lib
 * or @types/node, which these declarations do not require; a
 * WebAssembly.Module (an interface without members there) is assignable
 * to this type and this type to it.
 */
export interface WasmModule {
  readonly [wasmModule]?: never;
}

/** What `ready({ wasm })` loads the .wasm from. */
export type WasmSourceValue = string | UrlLike | ResponseLike | ArrayBufferLike | ArrayBufferView | WasmModule;

/** A source, or a promise of one, or a function that returns either (called once, when loading). */
export type WasmSource = WasmSourceValue | PromiseLike<WasmSource> | (() => WasmSource);

/** ready()'s options. */
export interface ReadyOptions {
  /** A URL or string (http(s): fetched, file: read in Node), a Response, the bytes, or a compiled module. */
  wasm?: WasmSource | undefined;
}

/**
 * Resolves once the wasm module is loaded (needed before using the classes
 * directly). Without `wasm`, the main entry loads the package's .wasm file
 * (the asset Vite and webpack emit, the file beside the package in Node or
 * a page without a bundler), or the copy inlined in the package where
 * there is no file (esbuild bundles, Web Workers); zarr-codecs-wasm/slim
 * resolves if a module is loaded already and rejects with NOT_READY
 * otherwise. The first successful call
 * wins; after a failure (WASM_LOAD_FAILED, NO_WASM_SIMD) a later call
 * tries again.
 */
export function ready(options?: ReadyOptions): Promise<void>;

/** The compiled module in use, to post to workers (each then calls ready({ wasm: module })). Throws NOT_READY before ready(). */
export function compiledWasm(): WasmModule;

/** True when this JavaScript engine runs WebAssembly SIMD (the package needs it). */
export function hasWasmSimd(): boolean;

// ---- zarrita -----------------------------------------------------------------

/** A codec registry: zarrita's `registry`, a Map from codec name to an async loader. */
export interface CodecRegistry {
  get(name: string): unknown;
  set(name: string, loader: () => Promise<any>): unknown;
}

/** What `register` sets besides the package's own codecs. */
export interface RegisterOptions {
  /**
   * The compressors decoded in the package's wasm: zstd, blosc, gzip,
   * zlib, lz4 and their numcodecs.* names (default true). false keeps
   * zarrita's own (numcodecs.js, DecompressionStream). With true, the
   * ones replaced still read the frames the package's decoders do not
   * take (snappy inside blosc).
   */
  compressors?: boolean;
}

/**
 * Sets "bytes", "endian", "packbits", "numcodecs.packbits", "n5_default",
 * "vlen-bytes", "shuffle", the compressors (zstd, blosc, gzip, zlib, lz4
 * and their numcodecs.* names; `{ compressors: false }` keeps zarrita's)
 * and the codec withDataTypes presents stored types through in a zarrita
 * registry (0.5, 0.6 or 0.7) to loaders of the wasm codecs, which load the
 * module on first use. The previous `bytes` stays the fallback for what
 * the wasm codec does not handle (zarrita's string types, configurations
 * zarrita accepts beyond the spec), and the previous compressors for the
 * frames the wasm decoders do not take. Returns the registry.
 */
export function register<R extends CodecRegistry>(registry: R, options?: RegisterOptions): R;

/** A store: anything with `get(key)`, as zarrita reads them. */
export interface StoreLike {
  get(key: any, ...rest: any[]): unknown;
}

/** withDataTypes()' options. */
export interface WithDataTypesOptions {
  /** "float32" (default): narrow floats widened to float32; "bits": their bit patterns as uint8 or uint16. */
  floats?: "float32" | "bits" | undefined;
}

/**
 * A store through which zarrita opens every fixed-size data type of the
 * specs and of zarr-extensions, each presented as a type zarrita knows
 * (docs/data-types.md lists how). zarrita must have its codecs registered
 * (register(zarr.registry)) first, or opening such an array throws
 * NOT_REGISTERED.
 */
export function withDataTypes<S extends StoreLike>(store: S, options?: WithDataTypesOptions): S;

/** withN5's options. */
export interface WithN5Options {
  /**
   * "reversed" (the default): shape, chunk shape and dimension names in
   * numpy's order, as zarr-python 2's N5Store and viewers have N5 arrays
   * (N5's last dimension first); "n5": N5's own order ("dimensions" as
   * written, the fastest-varying axis first), as the n5_default page's
   * metadata has it.
   */
  readonly axes?: "reversed" | "n5" | undefined;
}

/**
 * N5 as Zarr v3: a store over an N5 container's root whose zarr.json keys
 * are answered from N5's attributes.json (an array where it has N5's array
 * attributes, an implicit group otherwise); blocks are read at their N5
 * paths by the n5_default codec. Needs register(zarr.registry) first
 * (NOT_REGISTERED). Writing zarr.json through it is refused.
 */
export function withN5<S extends StoreLike>(store: S, options?: WithN5Options): S;

/**
 * The data type as an array's metadata names it, for every array opened
 * through withDataTypes, presented or not: a v3 name or object form
 * ("uint16", "int4", { name: "struct", ... }), or for v2 the dtype ("<u2",
 * "<c8"); undefined for an array whose metadata withDataTypes did not read
 * (a store without it, or withN5 wrapped around it).
 */
export function storedDataType(array: { readonly store?: unknown; readonly path?: string | undefined }): DataTypeName | V2Dtype | undefined;

/** zarrita's byte strings (ByteStringArray): a null_terminated_bytes or v2 "|S" array as zarr.get returns it. */
export interface ZarritaByteStrings extends BufferBacked {
  readonly chars: number;
}

/**
 * The values of a byte-string result as numpy holds them: each element's
 * bytes without its trailing NULs, interior NULs and every byte kept
 * (ByteStringArray.get(i) decodes UTF-8 and drops every NUL). Views of the
 * result's buffer.
 */
export function byteStrings(data: ZarritaByteStrings): Uint8Array[];

/**
 * Whether withDataTypes presented the array to zarrita as a type other than
 * the stored one (int4 as int8, float8 as float32, a struct as uint8 bytes,
 * complex with a trailing dimension): its values are then the presented
 * type's, converted by the package's codecs. False for arrays zarrita reads
 * as they are, and for arrays not opened through withDataTypes.
 */
export function isPresented(array: { readonly store?: unknown; readonly path?: string | undefined }): boolean;

/**
 * zarrita's BoolArray as a struct column holds it: its values are read
 * with get(i). Indexing it gives undefined, at run time as here, so that
 * `column.data[i]` type-checks on any column and says so.
 */
export interface BoolColumnValues extends ZarritaArray<boolean> {
  readonly [index: number]: undefined;
}

/**
 * The values of one field, as withDataTypes presents its type: a
 * TypedArray (numbers, bigints, widened floats), an Array of strings, or
 * zarrita's BoolArray. Narrow the union as any other: `Array.isArray(data)`
 * (strings), `data instanceof Float32Array`, `"get" in data` (bools).
 */
export type ColumnValues = DecodedArray | string[] | BoolColumnValues;

/**
 * One field of a struct array: its values, shape and stride. `D` names the
 * container where the field's type is known (StructColumn<Float32Array>
 * for a float32 field, StructColumn<string[]> for fixed_length_utf32).
 */
export interface StructColumn<D extends ColumnValues = ColumnValues> extends Chunk<D> {}

/**
 * The fields of a struct array by name: a column each, or for a nested
 * struct an object of the same form. (A column and a nested struct are
 * told apart by the array's data type, not by their members: a nested
 * struct may have fields named data, shape and stride.)
 */
export interface StructFields {
  [field: string]: StructColumn | StructFields;
}

/** A flat record's fields: structFields' result where nothing more is said of it. */
export interface StructColumns {
  [field: string]: StructColumn;
}

/**
 * What structFields may be told a struct array's fields are: a column or
 * a nested struct per field. An interface or a type literal alike, as the
 * constraint is on its own keys (no index signature needed).
 */
export type StructFieldsOf<F> = { readonly [K in keyof F]: StructFieldOf<F[K]> };
/** A column, or (an object of fields) a nested struct; a union of them, each. */
type StructFieldOf<T> = T extends StructColumn ? StructColumn : T extends object ? StructFieldsOf<T> : StructColumn;

/**
 * What zarr.get returns, for an array of any data type (zarrita 0.5, 0.6
 * or 0.7): its `data` is the data type's container. structFields takes
 * it for a struct array's bytes and refuses anything else
 * (INVALID_INPUT).
 */
export interface ChunkLike {
  readonly data: BufferBacked | readonly unknown[];
  readonly shape: readonly number[];
  readonly stride: readonly number[];
}

/**
 * Splits what zarr.get returned for a struct array opened through
 * withDataTypes (uint8 values with the record's bytes as the last
 * dimension) into one column per field, like an Arrow struct column's
 * children: int4 as Int8Array, narrow floats as Float32Array or bits per
 * the store's `floats`, complex and shaped fields with their trailing
 * dimensions, bools in zarrita's BoolArray, strings as an Array of strings.
 *
 * The fields come from the array's metadata, at run time; their type is
 * what `F` says. Without it, a flat record's columns (StructColumns), each
 * of ColumnValues, to narrow per use; where the schema is known, name it,
 * and each field has its own container:
 *
 *     const { x, label } = structFields<{ x: StructColumn<Float32Array>; label: StructColumn<string[]> }>(result, arr);
 *
 * A nested struct's field is an object of fields: name it in `F`, or take
 * StructFields (every field a column or a nested struct) and tell them
 * apart by the data type.
 */
export function structFields<F extends StructFieldsOf<F> = StructColumns>(
  result: ChunkLike,
  arr: { readonly store?: unknown; readonly path?: string | undefined },
): F;

// ---- read ------------------------------------------------------------------

/** A slice as zarr.slice(start, stop, step) makes it (any zarrita version). */
export interface SliceLike {
  start: number | null;
  stop: number | null;
  step: number | null;
}

/** Per axis: an index, null (the whole axis) or a slice; as zarr.get takes it. */
export type SelectionEntry = number | null | SliceLike;

/**
 * An array read takes: a zarrita Array of 0.5, 0.6 or 0.7, as zarr.open
 * gives it (plain, withDataTypes, withN5, consolidated). Only what the type
 * of the result needs is named: `T` is zarrita's container for the array's
 * data type (what zarr.get's data is).
 */
export interface ReadableArray<T = unknown> {
  readonly shape: number[];
  readonly chunks: number[];
  getChunk(chunkCoords: number[], ...rest: any[]): Promise<{ data: T; shape: number[]; stride: number[] }>;
}

/** An AbortSignal (DOM's or Node's), by what read uses of it. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  throwIfAborted?(): void;
}

/** What read's options are: zarr.get's, and `into`. */
export interface ReadOptions<T = unknown> {
  /**
   * Where to put the values: the container zarr.get would return for this
   * array (a Uint16Array for uint16, zarrita's BoolArray for bool, ...),
   * exactly the selection's length. Filled in C order and returned as
   * `data`; the wrong length or container is refused and nothing is written.
   */
  into?: T | undefined;
  signal?: AbortSignalLike | undefined;
  /** A queue for the chunk fetches (zarrita's own option): all at once by default. */
  createQueue?: (() => { add(fn: () => Promise<void>): void; onIdle(): Promise<unknown> }) | undefined;
  /** The output on a SharedArrayBuffer (cross-origin isolated pages). */
  useSharedArrayBuffer?: boolean | undefined;
  /** Store options passed to every chunk request. */
  opts?: { signal?: AbortSignalLike | undefined; [option: string]: unknown } | undefined;
  /**
   * Decode the chunks in this pool's workers (createReadPool). Chains a
   * worker cannot decode (bytes -> bytes codecs that are not the package's,
   * strings and other JavaScript values) are read on the calling thread.
   */
  pool?: ReadPool | undefined;
  /**
   * Called once per chunk placed (done of total), never after the read
   * settles; a throw fails the read (CALLBACK_FAILED). Its `bytes` grows
   * in steps as whole answers arrive: show progress as done / total.
   */
  onProgress?: ((progress: ReadProgress) => void) | undefined;
  /**
   * Sharded arrays: the inner chunks of one shard that reads started in the
   * same tick (or, with a scheduler, that wait together) need are fetched
   * in as few range requests as this allows (two ranges merge where at most
   * `maxGapBytes` lie between them and the request stays within
   * `maxBytes`). By default both follow the link read sees: a gap of round
   * trip x rate, an answer of 250 ms of the link (with a scheduler, a
   * third of its window at most), at least 256 KiB (at most 1 MiB and
   * 16 MiB, zarr-python 3's values); a number given holds as it is.
   * false: one request per inner chunk.
   */
  coalesce?: { maxGapBytes?: number | undefined; maxBytes?: number | undefined } | boolean | undefined;
  /**
   * Sharded arrays: the most bytes of shard indexes kept for the array
   * across its reads (least recently used dropped first). Default 8 MiB.
   */
  indexCacheBytes?: number | undefined;
  /**
   * A store call of read's that fails for a reason that passes (a network
   * error, HTTP 429, 500, 502, 503 or 504) is tried again at most `retries`
   * times, the n-th retry after a wait drawn from [0, min(maxDelayMs,
   * baseDelayMs * 2^(n-1))) ms. Default { retries: 3, baseDelayMs: 100,
   * maxDelayMs: 20000 }; false: none. Never after a 404 (a missing chunk),
   * another status or an abort; an abort ends a wait at once. When the
   * tries are spent the read fails with FETCH_FAILED, the last error its
   * cause. Chunks read through zarrita's getChunk and metadata are not
   * retried (docs/read.md, "Retries").
   */
  retry?: { retries?: number | undefined; baseDelayMs?: number | undefined; maxDelayMs?: number | undefined } | boolean | undefined;
  /**
   * "reject" (the default): the read fails at its first failing chunk, as
   * zarr.get. "fill": a chunk whose fetch or decode fails is filled with
   * the fill value and listed in the result's `failedChunks`; aborts, a
   * throwing onProgress and a selection of one value still reject.
   */
  chunkErrors?: "reject" | "fill" | undefined;
  /**
   * Decoded chunks kept across reads (createChunkCache): each chunk is
   * fetched and decoded whole once, kept while the cache's bound allows,
   * and copied from it into the output; a revisited region makes no
   * request. Shared by reads of several arrays, in-thread and pooled.
   */
  cache?: ChunkCache | undefined;
  /**
   * A scheduler (createReadScheduler) shared by reads: their store requests
   * wait for its slots and are sent highest `priority` first; requests of
   * an aborted read not yet sent are never sent. Without one, requests are
   * sent at once.
   */
  scheduler?: ReadScheduler | undefined;
  /**
   * The read's priority with its scheduler and pool (higher first; default
   * 0): a number, or a function asked again each time a slot frees (a
   * viewer's distance to the view's centre, say). A function that throws
   * fails the read's waiting requests (CALLBACK_FAILED).
   */
  priority?: number | (() => number) | undefined;
}

/** read's options with `dtype`: `into` is then that type's container. */
export interface ReadDtypeOptions<D extends ReadDtype> extends ReadOptions<ReadDtypeContainers[D]> {
  /**
   * The values as this numeric type, cast by cast_value's rules (rounding
   * to nearest-even, out of range clamped; NaN or an infinity to an
   * integer type is VALUE_OUT_OF_RANGE), the fill too; `data` (and `into`)
   * is then that type's container. docs/read.md, "Array -> array codecs
   * and `dtype`".
   */
  dtype: D;
}

/** The containers read returns for each `dtype` (float16 in a Float16Array where the runtime has one, else as bit codes). */
export interface ReadDtypeContainers {
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array | Float16ArrayWhereDefined;
  bfloat16: Uint16Array;
  int2: Int8Array;
  int4: Int8Array;
  uint2: Uint8Array;
  uint4: Uint8Array;
  float4_e2m1fn: Uint8Array;
  float6_e2m3fn: Uint8Array;
  float6_e3m2fn: Uint8Array;
  float8_e3m4: Uint8Array;
  float8_e4m3: Uint8Array;
  float8_e4m3b11fnuz: Uint8Array;
  float8_e4m3fnuz: Uint8Array;
  float8_e5m2: Uint8Array;
  float8_e5m2fnuz: Uint8Array;
  float8_e8m0fnu: Uint8Array;
}

/** The runtime's Float16Array, where its TypeScript lib declares one. */
export type Float16ArrayWhereDefined = typeof globalThis extends { Float16Array: { prototype: infer F } } ? F : never;

/** The numeric types read's `dtype` casts to. */
export type ReadDtype = keyof ReadDtypeContainers;

/** createChunkCache()'s options. */
export interface ChunkCacheOptions {
  /** The most bytes of decoded chunks kept (an integer >= 0, or Infinity); default 64 MiB. */
  maxBytes?: number | undefined;
}

/** What a chunk cache has done (cache.stats()). */
export interface ChunkCacheStats {
  /** Chunks reads took from an entry already there (or on its way). */
  hits: number;
  /** Chunks fetched and decoded for the cache. */
  misses: number;
  /** Entries dropped to keep within maxBytes. */
  evictions: number;
  entries: number;
  bytes: number;
  maxBytes: number;
}

/** Decoded chunks kept across reads (read(arr, selection, { cache })). docs/read.md, "Chunk cache". */
export interface ChunkCache {
  readonly maxBytes: number;
  /** Bytes the kept chunks count now (their data, and 64 per entry); at most maxBytes once reads settle. */
  readonly bytes: number;
  /** Entries kept, chunks on their way included. */
  readonly size: number;
  stats(): ChunkCacheStats;
  /** Drops every entry (after the store changed, say). */
  clear(): void;
}

/**
 * A cache of decoded chunks, bounded by bytes, least recently used
 * dropped first, for read's `cache` option. Entries are keyed by the
 * opened array (the object zarr.open returned) and the chunk's coordinates.
 */
export function createChunkCache(options?: ChunkCacheOptions): ChunkCache;

/** createReadScheduler()'s options. */
export interface ReadSchedulerOptions {
  /** Store requests in flight at once for every read that names the scheduler (an integer >= 1); default 6. */
  maxRequests?: number | undefined;
}

/** What a read scheduler has done (scheduler.stats(); diagnostics().requests().scheduled sums every scheduler's). */
export interface ReadSchedulerStats {
  /** Requests waiting for a slot now. */
  waiting: number;
  /** Requests sent and not yet answered. */
  inFlight: number;
  /** Requests sent. */
  sent: number;
  /** Requests every read waiting on had aborted before they were sent: never sent. */
  droppedBeforeSending: number;
  /** Requests aborted in flight (every read waiting on them aborted). */
  abortedInFlight: number;
  /** Bytes the answers brought. */
  bytes: number;
}

/** One budget of store requests for every read that names it. docs/read.md, "Priority and cancellation". */
export interface ReadScheduler {
  readonly maxRequests: number;
  stats(): ReadSchedulerStats & { maxRequests: number };
}

/**
 * A scheduler of store requests for read's `scheduler` option (and
 * withScheduler's stores): at most `maxRequests` in flight, the waiting
 * ones sent highest priority first (asked again each time a slot frees),
 * first asked first among equals.
 */
export function createReadScheduler(options?: ReadSchedulerOptions): ReadScheduler;

/**
 * `store`, its requests sent through `scheduler`'s slots at this store's
 * priority (a number, or a function asked again each time a slot frees;
 * default 0), so that zarr.get and the libraries built on zarrita share the
 * budget with read. A request whose store options' signal aborts while it
 * waits is dropped, never sent (zarrita 0.6 and 0.7 give the store zarr.get's
 * signal; 0.5 does not).
 */
export function withScheduler<S extends { get(key: string, ...rest: any[]): Promise<Uint8Array | undefined> }>(
  store: S,
  scheduler: ReadScheduler,
  options?: { priority?: number | (() => number) | undefined },
): S;

/** A chunk read filled because its fetch or decode failed (chunkErrors: "fill"). */
export interface FailedChunk {
  /** Its coordinates in the chunk grid (inner chunks of shards). */
  chunk: number[];
  /** Why: the store's error, or the package's (ZarrCodecError). */
  error: unknown;
}

/** read's result: zarr.get's, and with chunkErrors: "fill" the chunks that failed. */
export interface ReadChunk<D = DecodedArray> extends Chunk<D> {
  /** Present with chunkErrors: "fill": the chunks filled because they failed (empty when none did). */
  failedChunks?: FailedChunk[];
}

/** What onProgress is told after each chunk is placed. docs/read.md, "Progress". */
export interface ReadProgress {
  /** Chunks placed so far (1, 2, ... total): for a progress bar, done / total. */
  done: number;
  /** The chunks the selection touches: missing ones (filled), cached ones and, with chunkErrors: "fill", failed ones included. */
  total: number;
  /** The chunk just placed: its coordinates in the chunk grid (inner chunks of shards), in the order chunks are placed. */
  chunk: number[];
  /** The pool worker that decoded it (0 ... workers - 1), or null for the calling thread (every chunk of a read with a cache). */
  worker: number | null;
  /**
   * Bytes the read's store calls had returned when the chunk was placed
   * (the chunks' stored bytes, shard indexes, what coalescing read between
   * them; nothing for chunks from a cache). A call counts whole once its
   * answer has arrived, never while it streams: a coalesced request counts
   * all at once, and a sharded read may report every byte it fetches at
   * its first chunk. Not a download's progress.
   */
  bytes: number;
}

/** createReadPool()'s options. */
export interface ReadPoolOptions {
  /** The most workers (1 to 256); default: the cores less one, at least 1. */
  workers?: number | undefined;
  /**
   * Reads that touch at most this many chunks decode on the calling
   * thread, where they are quicker than a round trip to a worker
   * (default 4: a viewer's tile); 0 sends every read of more than one
   * value to the workers.
   */
  inThreadChunks?: number | undefined;
  /**
   * A worker whose wasm memory grew by more than 16 MiB and then stays idle
   * this long (milliseconds) is ended, giving all its memory back; the
   * next read that needs a worker starts a new one. Default 1000; Infinity
   * keeps workers however much they grew.
   */
  recycleIdleMs?: number | undefined;
}

/** What a pool has done (pool.stats()). */
export interface ReadPoolStats {
  /** Workers started (replacements included) and failed. */
  started: number;
  failed: number;
  /** Workers ended for staying idle after their memory grew (ReadPoolOptions.recycleIdleMs). */
  recycled: number;
  /** Workers alive now. */
  alive: number;
  /**
   * Jobs workers ran (a chunk, or a band's chunks: one box each); of them
   * written straight into a shared output, or transferred back and placed.
   */
  jobs: number;
  shared: number;
  transferred: number;
  /** Chunks the workers decoded. */
  chunks: number;
  /** Reads given the pool, and of them reads left to the calling thread (small reads, chains a worker cannot decode). */
  reads: number;
  inThread: number;
  /** Milliseconds in workers decoding into boxes and placing them, and on the calling thread for the pool. */
  decodeMs: number;
  placeMs: number;
  callingMs: number;
  /** Per worker slot, the chunks it decoded (null: no worker there now). */
  perWorker: (number | null)[];
  /** Bytes of wasm memory of the workers alive, as each last reported (after each job). */
  memoryBytes: number;
  /** Per worker slot, its bytes of wasm memory (null: no worker there now). */
  perWorkerMemory: (number | null)[];
}

/** Workers that decode read's chunks (read(arr, selection, { pool })). */
export interface ReadPool {
  /** The most workers it runs. */
  readonly workers: number;
  stats(): ReadPoolStats;
  /** Ends every worker (reads under way fail with WORKER_FAILED); resolves when they have ended. */
  close(): Promise<void>;
}

/**
 * A pool of workers for read: Web Workers (module workers that Vite and
 * webpack bundle) in browsers, worker_threads in Node. Workers start when
 * a read needs them and stay warm; where the output is on a
 * SharedArrayBuffer (useSharedArrayBuffer, or a shared `into`) they write
 * straight into it, otherwise they transfer each chunk's region back for
 * one copy. docs/read.md, "Reads on every core".
 */
export function createReadPool(options?: ReadPoolOptions): ReadPool;

/** One value of a container: what zarr.get returns for a selection of integers only. */
export type ValueOf<T> = T extends { get(index: number): infer V } ? V : T extends ArrayLike<infer V> ? V : never;

/**
 * read's `dtype` option. Its type parameter is constrained in `read` by
 * `ReadDtype & string`, which is ReadDtype itself: written so, TypeScript's
 * error for a misspelt dtype lists the types (and suggests the nearest),
 * where `keyof ReadDtypeContainers` would only be named.
 */
export interface ReadDtypeOption<D> {
  /**
   * The values as this numeric type (one of ReadDtype), cast by
   * cast_value's rules (rounding to nearest-even, out of range clamped;
   * NaN or an infinity to an integer type is VALUE_OUT_OF_RANGE), the fill
   * too; `data` (and `into`) is then that type's container
   * (ReadDtypeContainers). docs/read.md, "Array -> array codecs and
   * `dtype`".
   */
  dtype?: D;
}

/** The container read returns: the array's own (`T`, zarr.get's), or with `dtype` that type's. */
export type ReadContainer<T, D> = D extends ReadDtype ? ReadDtypeContainers[D] : T;

/**
 * zarr.get's result, with each chunk decoded straight into its place:
 * `{ data, shape, stride }` (C order), or one value where every axis is
 * an integer. The same values, containers and fills as zarr.get; with
 * `dtype`, the values as that type in its container.
 */
export function read<T, D extends (ReadDtype & string) | undefined = undefined, Sel extends SelectionEntry[] = SelectionEntry[]>(
  arr: ReadableArray<T>,
  selection?: Sel | null,
  options?: ReadOptions<ReadContainer<T, D>> & ReadDtypeOption<D>,
): Promise<null extends Sel[number] ? ReadChunk<ReadContainer<T, D>> : SliceLike extends Sel[number] ? ReadChunk<ReadContainer<T, D>> : ValueOf<ReadContainer<T, D>>>;

/** How many chunks read() placed by each path (diagnostics().reads()). */
export interface ReadCounts {
  /** Decoded in place by the package's codecs (big-endian bytes, packbits, presented types). */
  decoded: number;
  /** N5 blocks decoded in place. */
  n5: number;
  /** Little-endian bytes copied into place. */
  copied: number;
  /** Missing chunks, filled in place. */
  filled: number;
  /** Decoded by zarrita's getChunk (what read does not decode itself), then placed. */
  viaZarrita: number;
  /** Taken from a chunk cache that had them (read's `cache` option); the chunks it fetched count by their path above. */
  cached: number;
  /**
   * Of the chunks above, those whose compressed frame (zstd, blosc, gzip,
   * zlib, lz4) was decoded in the package's wasm on its way into place.
   */
  decompressed: number;
}

// ---- widening --------------------------------------------------------------

/**
 * Bit patterns of `dataType` (float16, bfloat16, float8_*, float6_*,
 * float4_e2m1fn, or their complex_ forms, parts interleaved) to exact
 * float32 values (NaN payloads, infinities, -0 and subnormals kept): a
 * Uint16Array for the 16-bit formats, else a Uint8Array with each pattern
 * in the low bits. Call after ready().
 */
export function widenToFloat32(dataType: DataTypeName, values: Uint8Array | Uint16Array): Float32Array;

/** @deprecated since 0.3.0: use widenToFloat32("float16", values). */
export function float16ToFloat32(values: Uint16Array): Float32Array;
/** @deprecated since 0.3.0: use widenToFloat32("bfloat16", values). */
export function bfloat16ToFloat32(values: Uint16Array): Float32Array;
/** @deprecated since 0.3.0: use widenToFloat32("float4_e2m1fn", values). */
export function float4E2m1fnToFloat32(values: Uint8Array): Float32Array;
/** @deprecated since 0.3.0: use widenToFloat32("float6_e2m3fn", values). */
export function float6E2m3fnToFloat32(values: Uint8Array): Float32Array;
/** @deprecated since 0.3.0: use widenToFloat32("float6_e3m2fn", values). */
export function float6E3m2fnToFloat32(values: Uint8Array): Float32Array;

// ---- diagnostics -------------------------------------------------------------

/** The kernels the module can run: the SIMD ones (default), portable C++, or the scalar reference. */
export type Implementation = "simd" | "portable" | "reference";

/** What diagnostics() returns: a view of the loaded module instance, for tests, benchmarks and bug reports. */
export interface Diagnostics {
  /** The kernels in use. */
  implementation(): Implementation;
  /** Every kernel call of this module instance uses `name` from now on (a way to rule the SIMD kernels in or out of a suspected bug). */
  setImplementation(name: Implementation): void;
  /** C++ codec instances alive (not yet collected or disposed): a count that only grows shows a leak. */
  liveInstances(): number;
  /** Bytes of wasm memory of the instance in use (an instance's memory only grows; a grown, idle one is replaced: configureMemory). */
  wasmMemoryBytes(): number;
  /**
   * The read budget's account: bytes of bands read() holds now, the most
   * held at once (since the last call with resetPeak true), band requests
   * waiting, and the budget.
   */
  readScratch(resetPeak?: boolean): ReadScratch;
  /** How many times the instance was replaced by a fresh one. */
  recycles(): number;
  /**
   * What read()'s store calls cost: totals since the last reset and the
   * last 32 reads' own figures, oldest first; `reset` starts both afresh
   * after this call.
   */
  requests(reset?: boolean): RequestState;
  /** How many chunks read() has placed by each path in this realm (the fast path's share). */
  reads(): ReadCounts;
  /**
   * The zarrita copies whose arrays read() has read, one entry each, first
   * met first: a library that brings its own zarrita (ome-zarr.js,
   * @fideus-labs/ngff-zarr, viv) shows as a copy of its own, `registered:
   * false` where register() never extended its registry. Whether it is
   * registered is asked of each copy at this call.
   */
  zarritaCopies(): Promise<ZarritaCopy[]>;
  /** Runs `codec`'s kernel on one scratch block `repetitions` times, nothing copied in or out (to time the kernel alone). */
  runKernel(codec: BytesCodec | PackBitsCodec | NumcodecsPackBitsCodec, direction: "decode" | "encode", repetitions: number): void;
}

/** One zarrita copy of diagnostics().zarritaCopies(). */
export interface ZarritaCopy {
  /**
   * register() extended this copy's codec registry: its own decoding
   * (zarr.get, getChunk, a library's rendering) has the package's codecs.
   * undefined where the copy could not be asked (a zarrita whose arrays
   * cannot be made as 0.5 to 0.7 make them).
   */
  registered: boolean | undefined;
  /** Which zarrita, as far as its arrays tell. */
  zarrita: "0.5 or 0.6" | "0.7 or later";
  /** How many of its arrays read() has read. */
  arrays: number;
  /** The path of the first of them, in its store. */
  firstPath: string;
}

/** The module instance's diagnostics. Call after ready(). */
export function diagnostics(): Diagnostics;

/** One read's store calls (diagnostics().requests().recent). */
export interface ReadRequests {
  /** The array's path ("/" for the root). */
  path: string;
  /** Store calls it waited on, each attempt counted (a call several reads shared counts in each). */
  requests: number;
  /** Of those, calls other reads waited on too (a coalesced range, a shard index). */
  sharedRequests: number;
  /** Attempts past the first of each call (see ReadOptions.retry). */
  retries: number;
  /** Bytes those calls returned. */
  bytes: number;
  /** Bytes of them no read used: gaps coalescing read over, parts of a whole object a server sent for a range. */
  overReadBytes: number;
  /** Chunks the selection touches. */
  chunks: number;
  /** Milliseconds from the call of read() to its end. */
  ms: number;
  failed: boolean;
  /** The error's code (or name) where it failed. */
  error?: string;
}

/** diagnostics().requests(). */
export interface RequestState {
  /** Since the last reset, each store call once. */
  totals: { reads: number; failedReads: number; requests: number; retries: number; failedRequests: number; bytes: number; overReadBytes: number };
  recent: ReadRequests[];
  /** Every read scheduler of the realm together (waiting and inFlight now; the rest since the last reset). */
  scheduled: ReadSchedulerStats;
}

/** diagnostics().readScratch(). */
export interface ReadScratch {
  heldBytes: number;
  peakBytes: number;
  waiting: number;
  budgetBytes: number;
}

// ---- memory ----------------------------------------------------------------

/** configureMemory()'s settings. */
export interface MemorySettings {
  /**
   * Bytes of wasm memory the calling thread's reads hold at once for their
   * bands (default 64 MiB). Reads beyond it wait their turn, first come
   * first served; a band larger than the budget reads alone. Infinity: no
   * budget.
   */
  readBudget: number;
  /**
   * Milliseconds the calling thread's instance stays idle, after its memory
   * grew by more than 16 MiB, before it is replaced by a fresh one from the
   * same compiled module, giving the grown memory to the garbage collector
   * (default 1000; Infinity: never). Codecs made before keep working.
   */
  recycleIdleMs: number;
}

/**
 * Sets the settings given (for this page, worker or Node process) and
 * returns those in force; configureMemory() only reads them. docs/read.md, "Memory".
 */
export function configureMemory(options?: Partial<MemorySettings>): MemorySettings;

// ---- deprecated low-level API ---------------------------------------------------

/**
 * A status of the deprecated low-level API: "OK" or an ErrorCode, with its message.
 * @deprecated since 0.3.0: the codec classes throw ZarrCodecError instead.
 */
export interface Outcome {
  readonly code: "OK" | ErrorCode;
  readonly message: string;
}

/**
 * An instance of nativeCodecs()' classes: errors are returned as status
 * values, not thrown; free each with delete().
 * @deprecated since 0.3.0: use BytesCodec, PackBitsCodec or NumcodecsPackBitsCodec (decodeInto to decode into your own array).
 */
export interface NativeCodec {
  /** "OK", or why the constructor refused its arguments. */
  status(): Outcome;
  decodedBytes(): number;
  encodedBytes(): number;
  /** The decoded container's element type ("uint16", "bool", ...); "" where the constructor failed. */
  valueType(): string;
  /** The encoded size of `decodedByteLength` decoded bytes; -1 where that is no valid size. */
  encodedSizeFor(decodedByteLength: number): number;
  /** Decodes `input` into `output` (exactly decodedBytes() long). */
  decode(input: BytesInput, output: BytesInput): Outcome;
  /** Encodes `input` (decodedBytes() long) into `output` (encodedBytes() long). */
  encode(input: BytesInput, output: BytesInput): Outcome;
  delete(): void;
}

/**
 * What nativeCodecs().dataTypeInfo tells of a data type; the fields are
 * empty or 0 where `code` is not "OK".
 * @deprecated since 0.3.0, with nativeCodecs().
 */
export interface NativeDataTypeInfo extends Outcome {
  name: string;
  /** "bool", "signed", "unsigned", "float", "raw", "string" or "record". */
  typeClass: string;
  componentBits: number;
  componentCount: number;
  containerBytes: number;
  /** The narrow float format ("" for other types); the fields after it describe it. */
  floatFormat: string;
  /** The format's NaN code; -1 where it has none. */
  floatNanCode: number;
  floatHasInfinity: boolean;
  /** The largest finite value. */
  floatLargest: number;
  floatMantissaBits: number;
  floatExponentBits: number;
  floatBias: number;
  /** "ieee" (all-ones exponent: infinity, NaN), "fnuz" (one NaN, 0x80; no -0, no infinity), "fn" (finite), "e8m0" (powers of two; 0xFF NaN); "" for other types. */
  floatKind: string;
}

/**
 * The low-level API of 0.2, after ready(): classes with positional
 * constructors (`presentation` "native", the default, keeps narrow floats
 * as bits; "float32" widens them).
 * @deprecated since 0.3.0: use the codec classes (decodeInto to decode into your own array) and catch ZarrCodecError.
 */
export function nativeCodecs(): {
  BytesCodec: new (dataType: DataTypeName, configuration: BytesConfiguration | null | undefined, shape: readonly number[], presentation?: "native" | "float32") => NativeCodec;
  PackBitsCodec: new (dataType: DataTypeName, configuration: PackBitsConfiguration | null | undefined, shape: readonly number[], presentation?: "native" | "float32") => NativeCodec;
  NumcodecsPackBitsCodec: new (dataType: DataTypeName, configuration: NumcodecsPackBitsConfiguration | null | undefined, shape: readonly number[]) => NativeCodec;
  dataTypeInfo(name: string): NativeDataTypeInfo;
};

// Only the names exported above are the package's: the helper types stay
// inside this file.
export {};
