// What structFields should give for a leaf field of a fixture, from its
// stored codes (expected.json) and the types' definitions alone, as
// withDataTypes presents each type.
import { floatFormatBits, floatFormatValue, FLOAT_FORMATS } from "./reference.js";

const INTEGERS = {
  bool: Uint8Array, int2: Int8Array, int4: Int8Array, uint2: Uint8Array, uint4: Uint8Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array,
};

const nameOf = (dataType) => (typeof dataType === "string" ? dataType : dataType.name);

/**
 * @param {{data_type: unknown, codes: unknown[]}} leaf
 * @param {"float32" | "bits"} floats
 * @returns {{data: ArrayLike<unknown>, widened: boolean, strings?: string[]}}
 */
export function presentedLeaf(leaf, floats) {
  const name = nameOf(leaf.data_type);
  const { codes } = leaf;
  if (name === "fixed_length_utf32") return { strings: codes };
  if (INTEGERS[name]) return { data: INTEGERS[name].from(codes), widened: false };
  if (name === "int64" || name.startsWith("numpy.")) return { data: BigInt64Array.from(codes, BigInt), widened: false };
  if (name === "uint64") return { data: BigUint64Array.from(codes, BigInt), widened: false };
  if (/^r\d+$/.test(name)) return { data: Uint8Array.from(codes), widened: false };
  const component = { complex64: "float32", complex128: "float64" }[name] ?? name.replace(/^complex_/, "");
  if (component === "float32") return { data: new Float32Array(Uint32Array.from(codes).buffer), widened: false };
  if (component === "float64") return { data: new Float64Array(BigUint64Array.from(codes, BigInt).buffer), widened: false };
  if (FLOAT_FORMATS[component]) {
    const mask = 2 ** floatFormatBits(component) - 1;
    const native = component === "float16" && typeof globalThis.Float16Array === "function";
    if (floats === "bits" || native) {
      return { data: (floatFormatBits(component) > 8 ? Uint16Array : Uint8Array).from(codes, (c) => c & mask), widened: false };
    }
    return { data: Float32Array.from(codes, (c) => floatFormatValue(component, c & mask)), widened: true };
  }
  throw new Error(`presentedLeaf: no reference for ${name}`);
}

/** The leaves of structFields' result, by dotted path. */
export function leavesOf(columns, prefix = "") {
  const out = {};
  for (const [name, value] of Object.entries(columns)) {
    if (value && "data" in value && "shape" in value) out[prefix + name] = value;
    else Object.assign(out, leavesOf(value, `${prefix}${name}.`));
  }
  return out;
}
