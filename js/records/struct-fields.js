// structFields(result, arr): a read of a struct array that withDataTypes
// presented (uint8 with a trailing dimension of the record's bytes) split
// into named columns, each as withDataTypes presents that field's type
// (int4 -> Int8Array, float8 -> Float32Array or bits per the store's
// `floats`, datetime -> BigInt64Array, complex and shaped fields with
// their trailing dimensions, strings as an Array of JavaScript strings, a
// nested struct as a nested object of the same form), like an Arrow struct
// column's children. The split runs in wasm (codecs/record_columns.h),
// from the one parsed record type withDataTypes keeps for the array.
import { allocate, bytesOf, cOrderStrides } from "../codecs/chunk.js";
import { containerFor } from "../codecs/containers.js";
import { stringsFromCodeUnits } from "../codecs/utf32-strings.js";
import { presentedOf } from "../data-types/with-data-types.js";
import { describe, hasOwn, isPlainObject, ZarrCodecError } from "../errors.js";
import { callWithSlots } from "../wasm/io.js";
import { WasmInstance } from "../wasm/instance.js";
import { wasm } from "../wasm/load.js";
import { lastZarritaContainers } from "../zarrita/containers.js";

// One split per record type and floats mode, kept (a viewer splits read
// after read); a bound keeps the set small.
const splitters = new Map();
const MAX_SPLITTERS = 32;

function splitterFor(descriptor, float32) {
  const key = `${float32 ? "f" : "b"}${descriptor}`;
  let s = splitters.get(key);
  if (s) return s;
  if (splitters.size >= MAX_SPLITTERS) {
    const [oldest, old] = splitters.entries().next().value;
    old.core.dispose();
    splitters.delete(oldest);
  }
  const module = wasm();
  s = {};
  s.core = new WasmInstance(s, module, (into) => new into.RecordColumns(descriptor, float32), "structFields");
  const live = s.core.live;
  s.leaves = Array.from({ length: live.leaves() }, (_, k) => ({
    valueType: live.leafValueType(k),
    values: live.leafValuesPerRecord(k),
    bytes: live.leafBytesPerRecord(k),
  }));
  splitters.set(key, s);
  return s;
}

// A member of its own even for a name like "__proto__" (field names come
// from metadata).
function setOwn(object, key, value) {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}

function refuse(message) {
  return new ZarrCodecError("INVALID_INPUT", `structFields: ${message}`);
}

/**
 * @param {{data: ArrayBufferView, shape: number[], stride: number[]}} result
 *   what zarr.get returned for the array (or a chunk of it)
 * @param {{store: object, path: string}} arr the array, opened through withDataTypes
 * @returns {Record<string, {data: ArrayLike<unknown>, shape: number[], stride: number[]} | object>}
 */
export function structFields(result, arr) {
  // What the arguments hold, read once: a Proxy or getter that throws is
  // refused with the package's error, its own as the cause.
  let p;
  let path;
  let shape;
  let stride;
  let data;
  try {
    p = presentedOf(arr);
    path = arr?.path;
    if (isPlainObject(result)) ({ shape, stride, data } = result);
  } catch (cause) {
    throw new ZarrCodecError("INVALID_INPUT", `structFields: reading its arguments failed (${describe(cause?.message ?? cause)})`, { cause });
  }
  const record = p?.dataType?.record;
  if (!record) {
    throw refuse(
      `array ${describe(path)} is not a struct array opened through withDataTypes (its stored data type: ${describe(p?.stored)})`,
    );
  }
  if (!Array.isArray(shape) || !Array.isArray(stride)) {
    throw refuse(`expected what zarr.get returned ({ data, shape, stride }), got ${describe(result)}`);
  }
  try {
    shape = Array.from(shape);
    stride = Array.from(stride);
  } catch (cause) {
    throw new ZarrCodecError("INVALID_INPUT", `structFields: reading result.shape or result.stride failed (${describe(cause?.message ?? cause)})`, { cause });
  }
  if (!shape.every((d) => Number.isSafeInteger(d) && d >= 0) || !stride.every(Number.isSafeInteger)) {
    throw refuse(`expected a shape and stride of integers, got shape ${describe(shape)} and stride ${describe(stride)}`);
  }
  const R = record.bytes;
  if (shape[shape.length - 1] !== R || stride[stride.length - 1] !== 1) {
    throw refuse(`expected the record's ${R} bytes as the last dimension (stride 1), got shape [${shape.join(", ")}] and stride [${stride.join(", ")}]`);
  }
  const outer = shape.slice(0, -1);
  const outerStride = stride.slice(0, -1).map((s) => s / R);
  if (!outerStride.every(Number.isInteger)) throw refuse(`the strides [${stride.join(", ")}] do not keep whole records together`);
  const records = outer.reduce((a, b) => a * b, 1);
  const bytes = bytesOf("structFields", "result.data", data);
  if (bytes.byteLength !== records * R) {
    throw refuse(`result.data has ${bytes.byteLength} bytes, but shape [${shape.join(", ")}] needs ${records * R}`);
  }
  const s = splitterFor(record.descriptor, p.floats === "float32");
  const columns = s.leaves.map((leaf) => allocate("structFields", containerFor(leaf.valueType), records * leaf.bytes));
  const lengths = new Float64Array(s.leaves.map((leaf) => records * leaf.bytes));
  const failed = callWithSlots(
    s.core.module,
    "_zcw_split_records",
    [bytes, new Uint8Array(lengths.buffer)],
    columns.map((c) => new Uint8Array(c.buffer)),
    [s.core.handle, bytes.byteLength, columns.length],
  );
  if (failed) s.core.fail();
  const { wrapBool } = lastZarritaContainers();
  const out = {};
  record.leaves.forEach((leaf, k) => {
    const { valueType, values } = s.leaves[k];
    // The leaf's own dimensions after the array's: a v2 field's shape, then
    // (real, imaginary) or the bytes of raw values; strings hold their
    // code points in one element.
    const info = leaf.type.info;
    const inner = [...leaf.shape];
    if (info.typeClass === "raw") inner.push(info.containerBytes);
    else if (info.componentCount === 2 && info.typeClass === "float") inner.push(2);
    const perRecord = inner.reduce((a, b) => a * b, 1);
    let data = columns[k];
    if (valueType === "utf32") {
      data = stringsFromCodeUnits(data, values / perRecord);
    } else if (valueType === "bool" && wrapBool) {
      data = wrapBool(new Uint8Array(data.buffer));
    }
    const column = {
      data,
      shape: [...outer, ...inner],
      stride: [...outerStride.map((st) => st * perRecord), ...cOrderStrides(inner)],
    };
    let at = out;
    for (const name of leaf.path.slice(0, -1)) at = hasOwn(at, name) ? at[name] : setOwn(at, name, {});
    setOwn(at, leaf.path[leaf.path.length - 1], column);
  });
  return out;
}
