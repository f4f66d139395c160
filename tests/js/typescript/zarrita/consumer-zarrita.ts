// A strict consumer of the package together with the real zarrita, type-
// checked (never run) against every zarrita the package supports (0.5,
// 0.6, 0.7: `zarrita` resolves to each in turn): what zarrita returns
// (its Array<DataType, Store>, its Chunk<D>, its registry, its stores) goes
// into the package's functions and codec classes without a cast, and what
// they return is typed. Each `@ts-expect-error` line is a use the
// declarations must refuse.
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import {
  BytesCodec,
  createChunkCache,
  createReadPool,
  isPresented,
  NumcodecsPackBitsCodec,
  read,
  register,
  storedDataType,
  structFields,
  withDataTypes,
  withN5,
  ZarrCodecError,
  type BoolColumnValues,
  type ChunkCache,
  type ChunkCacheStats,
  type ReadOptions,
  type ReadPool,
  type ReadProgress,
  type StructColumn,
  type StructColumns,
  type StructFields,
} from "zarr-codecs-wasm";

// ---- register, withDataTypes, withN5: zarrita's registry and stores ----------------

const registry: typeof zarr.registry = register(zarr.registry);
const fetched = withDataTypes(new zarr.FetchStore("https://example.com/data.zarr"));
const onDisk = withN5(withDataTypes(new FileSystemStore("/path/to/container.n5")), { axes: "reversed" });
const inMemory = withDataTypes(new Map<string, Uint8Array>(), { floats: "bits" });
// The store keeps its own type, so zarrita's options for it stay typed.
const sameStore: zarr.FetchStore = fetched;

// ---- storedDataType, isPresented: zarrita's Array<DataType, Store> ------------------

export async function open(): Promise<string> {
  const weights = await zarr.open(zarr.root(fetched).resolve("weights"), { kind: "array" });
  const group = await zarr.open(zarr.root(onDisk), { kind: "group" });
  const stored = storedDataType(weights);
  const presented: boolean = isPresented(weights);
  return `${String(stored)} ${presented} ${String(storedDataType(group))} ${registry.size} ${String(sameStore)} ${String(inMemory)}`;
}

// ---- structFields: zarr.get's result as zarrita types it ----------------------------

export async function records(): Promise<number> {
  const detections = await zarr.open(zarr.root(fetched).resolve("detections"), { kind: "array" });
  const result = await zarr.get(detections);

  // Nothing said: a flat record's columns, each indexable.
  const { x, label } = structFields(result, detections);
  const any: number | bigint | string | undefined = x.data[1];
  // @ts-expect-error the field's container is not known: narrow it first
  label.data.get(1);
  const first: string | undefined = Array.isArray(label.data) ? label.data[1] : undefined;
  const flag: boolean | undefined = "get" in x.data ? x.data.get(0) : undefined;
  const widened: number | undefined = x.data instanceof Float32Array ? x.data[1] : undefined;
  const columns: StructColumns = structFields(result, detections);

  // The schema named: each field has its own container.
  type Detection = { x: StructColumn<Float32Array>; score: StructColumn<Float32Array>; label: StructColumn<string[]> };
  const typed = structFields<Detection>(result, detections);
  const value: number = typed.x.data[1]!;
  const name: string = typed.label.data[1]!;
  // @ts-expect-error an undeclared field
  typed.id;
  // An interface works as well as a type literal.
  interface Nested {
    pos: { x: StructColumn<Float32Array>; y: StructColumn<Float32Array> };
    valid: StructColumn<BoolColumnValues>;
  }
  const nested = structFields<Nested>(result, detections);
  const y: number = nested.pos.y.data[0]!;
  const valid: boolean = nested.valid.data.get(0);
  // @ts-expect-error a field is a column or a nested struct
  structFields<{ x: number }>(result, detections);

  // Every field a column or a nested struct, told apart by the data type.
  const all: StructFields = structFields(result, detections);

  // A chunk, as getChunk returns it.
  const chunk = await detections.getChunk([0]);
  structFields(chunk, detections);
  // @ts-expect-error a result has data, shape and stride
  structFields({ data: new Uint8Array(4) }, detections);
  return [any, first, flag, widened, columns, value, name, y, valid, all].length;
}

// ---- read and into: typed by the array's data type -----------------------------------

export async function reads(signal: AbortSignal): Promise<number> {
  const image = await zarr.open(zarr.root(fetched).resolve("image"), { kind: "array" });
  // Any data type: zarr.get's union of containers.
  const anyType = await read(image, null);
  const sameAsGet: typeof anyType.data = (await zarr.get(image)).data;
  if (!image.is("uint16")) throw new Error(`expected uint16, got ${image.dtype}`);
  const { data, shape } = await read(image, [zarr.slice(0, 256), null]);
  const values: Uint16Array = data.slice(0, 4);
  const options: ReadOptions<Uint16Array> = { into: new Uint16Array(256 * 512), signal };
  const into = await read(image, [zarr.slice(0, 256), null], options);
  const one: number = await read(image, [0, 0]);
  // @ts-expect-error into is the array's own container
  await read(image, null, { into: new Float32Array(4) });

  const mask = await zarr.open(zarr.root(fetched).resolve("mask"), { kind: "array" });
  if (!mask.is("bool")) throw new Error("expected bool");
  const bools = await read(mask, null, { into: new zarr.BoolArray(512 * 512) });
  const bit: boolean = bools.data.get(0);

  // Through a pool of workers, with progress.
  const pool: ReadPool = createReadPool({ workers: 2, recycleIdleMs: 30000 });
  const seen: ReadProgress[] = [];
  const pooled = await read(image, null, { pool, signal, onProgress: (p) => seen.push(p) });
  const pooledValues: Uint16Array = pooled.data;
  const worker: number | null = seen[0]?.worker ?? null;
  const jobs: number = pool.stats().jobs + pool.stats().recycled + pool.stats().memoryBytes;
  const workerMemory: (number | null)[] = pool.stats().perWorkerMemory;
  void workerMemory;
  await pool.close();
  // With a chunk cache, in-thread and pooled.
  const cache: ChunkCache = createChunkCache({ maxBytes: 256 * 2 ** 20 });
  const cachedValues: Uint16Array = (await read(image, [zarr.slice(0, 256), null], { cache })).data;
  const stats: ChunkCacheStats = cache.stats();
  const kept: number = cache.bytes + cache.size + cache.maxBytes + stats.hits + stats.misses + stats.evictions + cachedValues.length;
  cache.clear();
  createChunkCache();
  // @ts-expect-error maxBytes is a number
  createChunkCache({ maxBytes: "256MiB" });
  // dtype: the values as that type, in its container; into of that type.
  const texture: Float32Array = (await read(image, [zarr.slice(0, 256), null], { dtype: "float32" })).data;
  const bytes8: Uint8Array = (await read(image, null, { dtype: "uint8", into: new Uint8Array(512 * 512) })).data;
  void texture;
  void bytes8;
  // @ts-expect-error into is the dtype's container
  await read(image, null, { dtype: "float32", into: new Uint16Array(4) });
  // @ts-expect-error dtype names a numeric data type
  await read(image, null, { dtype: "float128" });
  // @ts-expect-error a cache comes from createChunkCache
  await read(image, null, { cache: new Map() });
  // @ts-expect-error workers is a number
  createReadPool({ workers: "2" });
  // @ts-expect-error onProgress takes one object
  await read(image, null, { onProgress: (done: number, total: number) => done + total });
  return values.length + shape.length + into.data.length + one + Number(bit) + sameAsGet.length + pooledValues.length + (worker ?? 0) + jobs + kept;
}

// ---- the codec classes: zarrita's chunks and containers ------------------------------

export async function codecs(bytes: Uint8Array): Promise<number> {
  const image = await zarr.open(zarr.root(fetched).resolve("image"), { kind: "array" });
  if (!image.is("uint16")) throw new Error("expected uint16");
  const chunk = await image.getChunk([0, 0]);
  const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType: image.dtype, shape: chunk.shape });
  const encoded: Uint8Array = codec.encode(chunk);
  const back: Uint16Array = codec.decodeInto(encoded, chunk.data);

  const mask = await zarr.open(zarr.root(fetched).resolve("mask"), { kind: "array" });
  if (!mask.is("bool")) throw new Error("expected bool");
  const bits = await mask.getChunk([0, 0]);
  const packbits = NumcodecsPackBitsCodec.fromConfig({}, { dataType: "bool", shape: bits.shape });
  const packed = packbits.encode(bits);
  const unpacked: zarr.BoolArray = packbits.decodeInto(packed, bits.data);
  try {
    codec.decode(bytes);
  } catch (error) {
    if (!(error instanceof ZarrCodecError)) throw error;
    return error.code.length;
  }
  return back.length + unpacked.length + packed.data.length;
}
