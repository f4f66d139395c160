// A strict consumer of the main entry, type-checked (never run) under every
// lib the declarations promise: es2020 and later, with or without the DOM
// lib, without @types/node. It touches every export, so a declaration that
// needs a global these libs lack fails here. Each `@ts-expect-error` line
// is a misuse the declarations must refuse: were it accepted, tsc would
// fail with "Unused '@ts-expect-error' directive".
import {
  BytesCodec,
  CastValueCodec,
  ScaleOffsetCodec,
  N5DefaultCodec,
  NumcodecsPackBitsCodec,
  PackBitsCodec,
  VlenBytesCodec,
  ZarrCodecError,
  bfloat16ToFloat32,
  byteStrings,
  compiledWasm,
  configureMemory,
  diagnostics,
  float16ToFloat32,
  float4E2m1fnToFloat32,
  float6E2m3fnToFloat32,
  float6E3m2fnToFloat32,
  hasWasmSimd,
  isPresented,
  nativeCodecs,
  ready,
  register,
  storedDataType,
  structFields,
  widenToFloat32,
  withDataTypes,
  withN5,
  type BoolColumnValues,
  type MemorySettings,
  type ReadScratch,
  type ZarritaCopy,
  type BytesConfiguration,
  type Chunk,
  type ChunkLike,
  type ChunkMeta,
  type CodecOptions,
  type CodecRegistry,
  type ColumnValues,
  type DataTypeName,
  type DecodedArray,
  type Diagnostics,
  type ErrorCode,
  type Implementation,
  type N5DefaultConfiguration,
  type NativeCodec,
  type NativeDataTypeInfo,
  type NumcodecsPackBitsConfiguration,
  type Outcome,
  type PackBitsConfiguration,
  type ReadyOptions,
  type ResponseLike,
  type StoreLike,
  type StructColumn,
  type StructColumns,
  type StructFields,
  type StructFieldsOf,
  type V2Dtype,
  type WasmModule,
  type ZarritaByteStrings,
  type WasmSource,
  type WithDataTypesOptions,
} from "zarr-codecs-wasm";

// ---- loading -----------------------------------------------------------------

export async function load(bytes: Uint8Array, response: ResponseLike): Promise<WasmModule> {
  if (!hasWasmSimd()) throw new Error("no SIMD");
  await ready();
  await ready({ wasm: "https://example.com/zarr-codecs-wasm.wasm" });
  await ready({ wasm: bytes });
  await ready({ wasm: bytes.buffer });
  await ready({ wasm: response });
  await ready({ wasm: Promise.resolve(response) });
  await ready({ wasm: async () => bytes });
  await ready({ wasm: () => Promise.resolve("file:///zarr-codecs-wasm.wasm") });
  await ready({ wasm: undefined });
  const module = compiledWasm();
  await ready({ wasm: module });
  const options: ReadyOptions = { wasm: { href: "https://example.com/x.wasm" } };
  await ready(options);
  const source: WasmSource = () => () => module;
  await ready({ wasm: source });
  // @ts-expect-error a number is no wasm source
  await ready({ wasm: 42 });
  // @ts-expect-error a Map is no wasm source (WasmModule is a weak type)
  await ready({ wasm: new Map<string, string>() });
  // @ts-expect-error a function that returns no source
  await ready({ wasm: () => 42 });
  return module;
}

// ---- codecs ------------------------------------------------------------------

export function codecs(): number {
  const meta: ChunkMeta = { dataType: "uint16", shape: [4] };
  const legacyMeta: ChunkMeta = { data_type: { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1 } }, shape: [2] };
  const config: BytesConfiguration = { endian: "big" };
  const bytes = BytesCodec.fromConfig(config, meta);
  const kind: "array_to_bytes" = bytes.kind;
  const chunk: Chunk<DecodedArray> = bytes.decode(new Uint8Array(8));
  const values: DecodedArray = chunk.data;
  const into: Uint16Array = bytes.decodeInto(new Uint8Array(8).buffer, new Uint16Array(4));
  const encoded: Uint8Array = bytes.encode({ data: new Uint16Array(4), shape: [4], stride: [1] });
  const size: number = bytes.computeEncodedSize(8);
  bytes.dispose();
  new BytesCodec(null, legacyMeta).dispose();
  new BytesCodec(undefined, { dataType: "uint8", shape: [1], fillValue: 0 }).dispose();

  const packConfig: PackBitsConfiguration = { padding_encoding: "first_byte", first_bit: null, last_bit: 11 };
  const packbits = PackBitsCodec.fromConfig(packConfig, meta);
  const packed: Uint8Array = packbits.encode({ data: new Uint16Array(4) });
  const unpacked: Int8Array = packbits.decodeInto(packed, new Int8Array(4));
  packbits.decode(new DataView(packed.buffer));
  packbits.computeEncodedSize(8);
  packbits.dispose();
  // @ts-expect-error last_bit is a number
  PackBitsCodec.fromConfig({ last_bit: "11" }, meta);
  // @ts-expect-error padding_encoding has three values
  PackBitsCodec.fromConfig({ padding_encoding: "middle" }, meta);
  // @ts-expect-error meta needs a data type
  PackBitsCodec.fromConfig({}, { shape: [4] });
  const widen: CodecOptions = { floats: "float32" };
  BytesCodec.fromConfig({}, { dataType: "float8_e4m3", shape: [2] }, widen).dispose();
  PackBitsCodec.fromConfig({}, { dataType: "float4_e2m1fn", shape: [2] }, { floats: "bits" }).dispose();
  BytesCodec.fromConfig({}, meta, null).dispose();
  // @ts-expect-error floats is "bits" or "float32"
  BytesCodec.fromConfig({}, meta, { floats: "float16" });

  const numcodecsConfig: NumcodecsPackBitsConfiguration = { id: "packbits" };
  const filter = NumcodecsPackBitsCodec.fromConfig(numcodecsConfig, { dataType: "bool", shape: [3] });
  const filterKind: "array_to_array" = filter.kind;
  const encodedMeta = filter.getEncodedMeta({ dataType: "bool", shape: [3], extra: "kept" });
  const next: { dataType: "uint8"; shape: [number]; fillValue: 0; extra: string } = encodedMeta;
  const bools: Chunk<Uint8Array> = filter.decode({ data: new Uint8Array(2) });
  const boolsInto: Uint8Array = filter.decodeInto({ data: new Uint8Array(2) }, new Uint8Array(3));
  const filtered: Chunk<Uint8Array> = filter.encode({ data: new Uint8Array(3) });
  filter.computeEncodedSize(3);
  filter.dispose();

  return kind.length + filterKind.length + values.length + into.length + encoded.length + size + unpacked.length +
    next.shape[0] + bools.data.length + boolsInto.length + filtered.data.length;
}

export async function n5(): Promise<number> {
  const configuration: N5DefaultConfiguration = {
    codecs: [
      { name: "transpose", configuration: { order: [1, 0] } },
      { name: "bytes", configuration: { endian: "big" } },
      { name: "gzip", configuration: { level: 5 } },
    ],
  };
  const codec = N5DefaultCodec.fromConfig(
    { codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, { name: "bytes", configuration: { endian: "big" } }] },
    { dataType: "uint16", shape: [2, 2] },
  );
  const kind: "array_to_bytes" = codec.kind;
  const block: Uint8Array = await codec.encode({ data: new Uint16Array(4) });
  const chunk: Chunk<DecodedArray> = await codec.decode(block);
  codec.dispose();
  new N5DefaultCodec(configuration, { dataType: "uint8", shape: [2, 2] }).dispose();
  // Without the transpose: the chunk's axes are the block header's reversed.
  const reversedAxes: N5DefaultConfiguration = { codecs: [{ name: "bytes", configuration: { endian: "big" } }, { name: "zstd" }] };
  N5DefaultCodec.fromConfig({ codecs: [{ name: "bytes", configuration: { endian: "big" } }] }, { dataType: "uint16", shape: [2, 2] }).dispose();
  // @ts-expect-error a compressor needs the bytes codec before it
  N5DefaultCodec.fromConfig({ codecs: [{ name: "zstd" }] }, { dataType: "uint16", shape: [2] });
  // @ts-expect-error N5 blocks are big-endian
  N5DefaultCodec.fromConfig({ codecs: [{ name: "transpose", configuration: { order: [0] } }, { name: "bytes", configuration: { endian: "little" } }] }, { dataType: "uint16", shape: [2] });
  // @ts-expect-error n5_default decodes asynchronously: no decodeInto
  codec.decodeInto(block, new Uint16Array(4));
  return kind.length + chunk.shape.length + reversedAxes.codecs.length;
}

export function castAndScale(): number {
  const cast = CastValueCodec.fromConfig(
    { data_type: "uint8", rounding: "towards-zero", out_of_range: "clamp", scalar_map: { encode: [["NaN", 0]], decode: [[0, "NaN"]] } },
    { dataType: "float64", shape: [2], fillValue: NaN },
  );
  const kind: "array_to_array" = cast.kind;
  const stored: string = cast.encodedDataType;
  const fill: number | bigint | undefined = cast.encodedFill;
  const next = cast.getEncodedMeta({ dataType: "float64", shape: [2] });
  const encoded = cast.encode({ data: Float64Array.of(1.5, NaN), shape: [2], stride: [1] });
  cast.decode(encoded);
  const scale = new ScaleOffsetCodec({ scale: 100, offset: "0x43fa0000" }, { data_type: "float32", shape: [1] });
  scale.decode({ data: Float32Array.of(4392) });
  // @ts-expect-error rounding takes the page's five modes only
  CastValueCodec.fromConfig({ data_type: "uint8", rounding: "up" }, { dataType: "float32", shape: [1] });
  // @ts-expect-error cast_value needs its data_type
  new CastValueCodec({}, { dataType: "float32", shape: [1] });
  return kind.length + stored.length + Number(fill ?? 0) + next.dataType.length;
}

export function variableLengthBytes(): number {
  const codec = VlenBytesCodec.fromConfig(undefined, { dataType: "variable_length_bytes", shape: [2] });
  const kind: "array_to_bytes" = codec.kind;
  const encoded: Uint8Array = codec.encode({ data: [new Uint8Array([1]), new Uint8Array(0)] });
  const items: Uint8Array[] = codec.decode(encoded).data;
  new VlenBytesCodec({}, { data_type: "v2:object", shape: [1] }).dispose();
  // @ts-expect-error vlen-bytes takes no configuration
  VlenBytesCodec.fromConfig({ endian: "little" }, { dataType: "bytes", shape: [1] });
  // @ts-expect-error its items are Uint8Arrays
  codec.encode({ data: ["a", "b"] });
  const strings: ZarritaByteStrings = { buffer: new ArrayBuffer(4), byteOffset: 0, byteLength: 4, chars: 2 };
  const values: Uint8Array[] = byteStrings(strings);
  // @ts-expect-error byte strings say their width (chars)
  byteStrings(new Uint8Array(4));
  return kind.length + items.length + values.length;
}

// ---- errors: every code, and narrowing on it ---------------------------------

function advice(code: ErrorCode): string {
  switch (code) {
    case "UNKNOWN_DATA_TYPE":
    case "UNSUPPORTED_DATA_TYPE":
    case "INVALID_CONFIGURATION":
    case "INVALID_METADATA":
    case "INVALID_SHAPE":
    case "INVALID_INPUT":
    case "INVALID_REGISTRY":
    case "SIZE_OVERFLOW":
    case "LENGTH_MISMATCH":
    case "PADDING_MISMATCH":
    case "VALUE_OUT_OF_RANGE":
    case "UNFILLABLE_CHUNK":
    case "OUT_OF_MEMORY":
    case "DISPOSED":
    case "NOT_READY":
    case "NO_WASM_SIMD":
    case "WASM_LOAD_FAILED":
      return "see the message";
    case "NOT_REGISTERED":
      return "call register(zarr.registry) first";
    case "CODEC_FAILED":
      return "the failed codec's error is the cause";
    case "WORKER_FAILED":
      return "a read pool's worker ended; later reads start another";
    case "CALLBACK_FAILED":
      return "onProgress threw: its error is the cause";
    case "FETCH_FAILED":
      return "a store call kept failing: the last failure is the cause";
    case "INVALID_SELECTION":
      return "a selection read cannot take, as numpy refuses it";
    case "NOT_FOUND":
      return "no array or group at that path: the message names the URL";
    case "UNKNOWN_CODEC":
      return "the array names a codec no registry holds";
    case "CORRUPT_DATA":
    case "CHECKSUM_MISMATCH":
    case "UNSUPPORTED_CODEC":
      return "a compressed chunk its decoder refuses";
    default: {
      // The union has no code beyond the cases above.
      const none: never = code;
      return none;
    }
  }
}

export function errors(error: unknown): string {
  if (error instanceof ZarrCodecError) {
    const name: "ZarrCodecError" = error.name;
    const cause: unknown = error.cause;
    if (error.code === "NOT_REGISTERED") {
      const code: "NOT_REGISTERED" = error.code;
      return code + name + String(cause);
    }
    // @ts-expect-error no such code
    if (error.code === "NOT_A_CODE") return "";
    return advice(error.code) + error.message;
  }
  const made = new ZarrCodecError("INVALID_INPUT", "made here", { cause: error });
  // @ts-expect-error codes are the package's
  new ZarrCodecError("MY_CODE", "made here");
  return made.stack ?? "";
}

// ---- zarrita: register, withDataTypes, withN5, storedDataType, structFields ----

interface MyStore {
  get(key: `/${string}`, options?: { signal?: unknown }): Promise<Uint8Array | undefined>;
  getRange?(key: `/${string}`, range: { offset: number; length: number }): Promise<Uint8Array | undefined>;
}

// A column or a nested struct: the array's data type tells them apart.
function isColumn(value: StructColumn | StructFields): value is StructColumn {
  return Array.isArray(value.shape) && Array.isArray(value.stride);
}

function columns(fields: StructFields, prefix = ""): string[] {
  return Object.entries(fields).flatMap(([name, value]) =>
    isColumn(value) ? [`${prefix}${name}: ${value.data.length} values of shape [${value.shape.join(", ")}]`] : columns(value, `${prefix}${name}.`),
  );
}

export function zarrita(store: MyStore, registry: Map<string, () => Promise<{ fromConfig(...args: unknown[]): unknown }>>): string[] {
  const same: typeof registry = register(registry);
  const custom: CodecRegistry = { get: () => undefined, set: () => undefined };
  register(custom);
  // @ts-expect-error a registry has get and set
  register(new Set<string>());

  const options: WithDataTypesOptions = { floats: "bits" };
  const typed: MyStore = withDataTypes(store, options);
  withDataTypes(store);
  withDataTypes(store, { floats: "float32" });
  withDataTypes(store, { floats: undefined });
  // @ts-expect-error "native" was the deprecated nativeCodecs() presentation, never a floats value
  withDataTypes(store, { floats: "native" });
  // @ts-expect-error presentation was renamed floats
  withDataTypes(store, { presentation: "float32" });
  // @ts-expect-error a store has get
  withDataTypes({ set() {} });

  const n5: MyStore = withN5(store);
  const plain: StoreLike = withN5({ get: (key: string) => key });
  const inN5Order: MyStore = withN5(store, { axes: "n5" });
  withN5(store, { axes: "reversed" });
  // @ts-expect-error axes are "reversed" or "n5"
  withN5(store, { axes: "C" });
  // @ts-expect-error withN5 has no floats option
  withN5(store, { floats: "bits" });

  const array = { store: typed, path: "/records" };
  const stored: DataTypeName | V2Dtype | undefined = storedDataType(array);
  const presented: boolean = isPresented(array);
  const v2: V2Dtype = [["a", "<i4"], ["b", "<f8", [2]], ["c", [["d", "|b1"]]]];
  const result = { data: new Uint8Array(12), shape: [2, 6], stride: [6, 1] };
  const fields: StructFields = structFields(result, array);
  const a = fields["a"] as StructColumn;
  const first: unknown = "get" in a.data ? a.data.get(0) : a.data[0];
  // The result's type: a flat record's columns unless told the schema.
  const chunk: ChunkLike = result;
  const flat: StructColumns = structFields(chunk, array);
  const values: ColumnValues | undefined = flat["a"]?.data;
  const bools: BoolColumnValues | undefined = values && "get" in values ? values : undefined;
  const indexed: number | bigint | string | undefined = values?.[0];
  type Schema = { a: StructColumn<Int32Array>; c: { d: StructColumn<BoolColumnValues> } };
  const schema: StructFieldsOf<Schema> = structFields<Schema>(result, array);
  const d: boolean = structFields<Schema>(result, array).c.d.data.get(0);
  // @ts-expect-error a field is a column or a nested struct
  structFields<{ a: Int32Array }>(result, array);
  return [String(stored), String(presented), String(v2), String(n5), String(plain), String(inN5Order), String(same.size), String(first), String(bools), String(indexed), String(schema), String(d), ...columns(fields)];
}

// ---- widening ------------------------------------------------------------------

export function widening(): number {
  const f8: Float32Array = widenToFloat32("float8_e4m3", new Uint8Array([0x38]));
  const f16: Float32Array = widenToFloat32({ name: "complex_float16" }, new Uint16Array(2));
  // @ts-expect-error bit patterns come as Uint8Array or Uint16Array
  widenToFloat32("float16", new Float32Array(1));
  const all: Float32Array[] = [
    f8,
    f16,
    float16ToFloat32(new Uint16Array([0x3c00])),
    bfloat16ToFloat32(new Uint16Array([0x3f80])),
    float4E2m1fnToFloat32(new Uint8Array([2])),
    float6E2m3fnToFloat32(new Uint8Array([8])),
    float6E3m2fnToFloat32(new Uint8Array([12])),
  ];
  return all.reduce((sum, values) => sum + values.length, 0);
}

// ---- diagnostics -----------------------------------------------------------------

export function diagnose(codec: BytesCodec): number {
  const d: Diagnostics = diagnostics();
  const was: Implementation = d.implementation();
  d.setImplementation("reference");
  d.runKernel(codec, "decode", 10);
  d.setImplementation(was);
  // @ts-expect-error three implementations
  d.setImplementation("avx2");
  // @ts-expect-error runKernel times the synchronous codecs only
  d.runKernel(N5DefaultCodec.fromConfig({ codecs: [{ name: "transpose", configuration: { order: [0] } }, { name: "bytes" }] }, { dataType: "uint8", shape: [1] }), "decode", 1);
  const scratch: ReadScratch = d.readScratch(true);
  return d.liveInstances() + d.wasmMemoryBytes() + scratch.peakBytes + d.recycles();
}

export async function unregisteredCopies(): Promise<string[]> {
  const copies: ZarritaCopy[] = await diagnostics().zarritaCopies();
  // @ts-expect-error a promise: whether a copy is registered is asked of it
  diagnostics().zarritaCopies().length;
  // registered is undefined where the copy could not be asked
  return copies.filter((c) => c.registered !== true).map((c) => `${c.zarrita}: ${c.arrays} arrays, first ${c.firstPath}`);
}

// ---- memory ----------------------------------------------------------------------

export function limitMemory(): number {
  const settings: MemorySettings = configureMemory({ readBudget: 32 * 2 ** 20, recycleIdleMs: 5000 });
  configureMemory({ readBudget: Infinity });
  const now: MemorySettings = configureMemory();
  // @ts-expect-error the budget is a number of bytes
  configureMemory({ readBudget: "32MiB" });
  // @ts-expect-error only the two settings
  configureMemory({ budget: 1 });
  return settings.readBudget + now.recycleIdleMs;
}

// ---- the deprecated low-level API ------------------------------------------------

export function deprecated(): number {
  const native = nativeCodecs();
  const codec: NativeCodec = new native.PackBitsCodec("int4", {}, [2], "native");
  const widened: NativeCodec = new native.BytesCodec("float16", { endian: "little" }, [2], "float32");
  const filter: NativeCodec = new native.NumcodecsPackBitsCodec("bool", null, [3]);
  const status: Outcome = codec.status();
  const outcome: Outcome = codec.decode(new Uint8Array([0x8f]), new Int8Array(2));
  const back: Outcome = codec.encode(new Int8Array(2), new Uint8Array(1));
  const info: NativeDataTypeInfo = native.dataTypeInfo("float8_e4m3");
  const sizes = codec.decodedBytes() + codec.encodedBytes() + codec.encodedSizeFor(2) + codec.valueType().length;
  // @ts-expect-error the low-level classes have no dataType()
  codec.dataType();
  // @ts-expect-error presentation is "native" or "float32" (floats: "bits" is withDataTypes')
  new native.BytesCodec("float16", {}, [2], "bits");
  codec.delete();
  widened.delete();
  filter.delete();
  return sizes + status.code.length + outcome.message.length + back.message.length + info.floatLargest + info.componentBits;
}
