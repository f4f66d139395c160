// How withDataTypes presents a stored data type to zarrita: as a type
// zarrita knows (README, "Data types"). Pure functions of the data type,
// the `floats` option and what the runtime has.
import { dataTypeName } from "../codecs/data-type.js";
import { ZarrCodecError } from "../errors.js";

// What every zarrita 0.5-0.7 reads itself.
const ZARRITA_TYPES = new Set([
  "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
  "float32", "float64",
]);
// zarrita's own variable-length types: not ours to present.
const ZARRITA_ONLY = /^(string|v2:.*)$/;
const TIME_TYPES = new Set(["numpy.datetime64", "numpy.timedelta64"]);

/**
 * zarrita reads `name` itself. float16: every zarrita 0.5-0.7 maps it to
 * globalThis.Float16Array, so it reads float16 exactly where the runtime
 * has one (Chrome 135+, Firefox 129+, Node 24+; not Node 20).
 */
export function zarritaReads(name) {
  return ZARRITA_TYPES.has(name) || (name === "float16" && typeof globalThis.Float16Array === "function");
}

/**
 * Whether a data type as metadata gives it is certainly read by zarrita as
 * it is: then nothing about the array needs presenting (or the wasm module).
 */
export function passesThrough(spec) {
  return typeof spec === "string" && (zarritaReads(spec) || ZARRITA_ONLY.test(spec));
}

/** The component type of a complex type: complex64 -> float32. */
export function componentOf(name) {
  if (name === "complex64") return "float32";
  if (name === "complex128") return "float64";
  return name.replace(/^complex_/, "");
}

/**
 * @typedef {object} Presentation
 * @property {string} presented   the type zarrita sees
 * @property {string} component   the stored type of one presented value
 *   (a complex type's component, uint8 for raw bytes)
 * @property {number} trailing    the extra last dimension (2 for complex,
 *   bits / 8 for r*), 0 for none
 * @property {boolean} widen      values are widened to float32
 * @property {boolean} codec      the array -> bytes codec must convert
 *   (the stored codec), not zarrita's or ours for the presented type
 * @property {string} kind        "int", "float", "raw", "time" or "native"
 */

/**
 * How `spec` (a data type as metadata gives it) is presented, or null
 * where zarrita reads it as it is. `info` is the core's dataTypeInfo.
 * @returns {Presentation | null}
 */
export function presentationOf(where, spec, floats, info) {
  if (passesThrough(spec)) return null;
  const name = dataTypeName(where, spec);
  const t = info(name);
  if (t.code !== "OK") {
    throw new ZarrCodecError(t.code, `${where}: ${t.message.replace(/^zarr-codecs-wasm: /, "")}`);
  }
  if (TIME_TYPES.has(t.name)) {
    return { presented: "int64", component: "int64", trailing: 0, widen: false, codec: false, kind: "time" };
  }
  if (t.typeClass === "raw") {
    return { presented: "uint8", component: "uint8", trailing: t.containerBytes, widen: false, codec: false, kind: "raw" };
  }
  const complex = t.componentCount === 2;
  const component = complex ? componentOf(t.name) : t.name;
  const one = presentComponent(component, t, floats);
  return { ...one, component, trailing: complex ? 2 : 0 };
}

// One real component of type `name` (info `t` is the whole type's).
function presentComponent(name, t, floats) {
  if (zarritaReads(name)) {
    return { presented: name, widen: false, codec: false, kind: "native" };
  }
  if (t.typeClass === "signed" || t.typeClass === "unsigned") {
    // int2, int4, uint2, uint4: one value per byte, sign- or zero-extended.
    return { presented: t.typeClass === "signed" ? "int8" : "uint8", widen: false, codec: true, kind: "int" };
  }
  // A float format narrower than float32.
  if (floats === "bits") {
    return {
      presented: t.componentBits > 8 ? "uint16" : "uint8",
      widen: false,
      // Bit patterns narrower than a byte need their ignored bits cleared
      // (bytes) and their own component width (packbits).
      codec: t.componentBits < 8,
      kind: "float",
    };
  }
  return { presented: "float32", widen: true, codec: true, kind: "float" };
}
