// The viewer's text views: a struct array as a table of its first records
// (one column per field, nested fields dotted: "box.x"), with each numeric
// field's values ready to draw; a string array as a table of its first
// values. Built where the array is read (page or worker), so that only
// plain data crosses postMessage (zarrita's string and bool containers
// would lose their methods).
import { formatValue } from "./format.js";

// zarrita's BoolArray and string arrays index with get(i).
const at = (data, i) => (typeof data.get === "function" ? data.get(i) : data[i]);

// A struct's fields as its metadata lists them: Zarr v3 struct objects,
// structured [name, type] pairs, or a Zarr v2 dtype's [name, dtype, shape].
function fieldsOf(spec) {
  const list = Array.isArray(spec) ? spec : spec?.configuration?.fields;
  if (!Array.isArray(list)) return undefined;
  return list.map((f) => (Array.isArray(f) ? { name: f[0], type: f[1] } : { name: f.name, type: f.data_type }));
}

const TYPE_NAMES = {
  Int8Array: "int8", Uint8Array: "uint8", Int16Array: "int16", Uint16Array: "uint16", Int32Array: "int32",
  Uint32Array: "uint32", BigInt64Array: "int64", BigUint64Array: "uint64", Float16Array: "float16",
  Float32Array: "float32", Float64Array: "float64", BoolArray: "bool",
};

/**
 * The leaves of structFields' result in declared order (the stored type's
 * field order; an object's own key order where the type is not known),
 * each { name, column, stored } with `stored` the field's type as metadata
 * names it.
 */
export function leavesOf(fields, spec) {
  const out = [];
  (function walk(object, declared, prefix) {
    const list = declared ?? Object.keys(object).map((name) => ({ name, type: undefined }));
    for (const { name, type } of list) {
      if (!Object.hasOwn(object, name)) continue;
      const value = object[name];
      if (Array.isArray(value.shape)) out.push({ name: prefix + name, column: value, stored: type });
      else walk(value, fieldsOf(type), `${prefix}${name}.`);
    }
  })(fields, fieldsOf(spec), "");
  return out;
}

/**
 * @param {object} fields what structFields returned for the slice
 * @param {unknown} spec the stored data type (storedDataType)
 * @param {number} records records in the slice
 * @param {number} rows how many to show
 * @param {(k: number) => string} indexOf the array index of record k
 * @returns {{table: {columns: string[], rows: string[][], total: number},
 *   fields: {name: string, stored: string, presented: string, values: ArrayBufferView}[]}}
 *   fields: the numeric ones, one value per record (a field of several
 *   values per record, such as a complex one, by its first)
 */
export function structTable(fields, spec, records, rows, indexOf) {
  const leaves = leavesOf(fields, spec).map((leaf) => {
    const per = leaf.column.data.length / records || 1; // a field's own values per record
    return { ...leaf, per };
  });
  const shown = [];
  for (let k = 0; k < Math.min(rows, records); k++) {
    shown.push([indexOf(k), ...leaves.map(({ column, per }) => {
      const values = Array.from({ length: per }, (_, j) => formatValue(at(column.data, k * per + j)));
      return per === 1 ? values[0] : `[${values.join(", ")}]`;
    })]);
  }
  const numeric = [];
  for (const { name, column, per, stored } of leaves) {
    const { data } = column;
    const bool = data.constructor.name === "BoolArray";
    if (!ArrayBuffer.isView(data) && !bool) continue; // strings
    const plain = bool ? new Uint8Array(data.buffer, data.byteOffset, data.length) : data;
    const values = new plain.constructor(records);
    for (let k = 0; k < records; k++) values[k] = plain[k * per];
    numeric.push({
      name,
      stored: typeof stored === "string" ? stored : TYPE_NAMES[data.constructor.name],
      presented: TYPE_NAMES[data.constructor.name] ?? data.constructor.name,
      values,
    });
  }
  return { table: { columns: ["index", ...leaves.map((l) => l.name)], rows: shown, total: records }, fields: numeric };
}

/** A string array's first values with their indices. */
export function stringTable(data, rows, indexOf) {
  const total = data.length;
  const shown = Array.from({ length: Math.min(rows, total) }, (_, k) => [indexOf(k), formatValue(at(data, k))]);
  return { columns: ["index", "value"], rows: shown, total };
}
