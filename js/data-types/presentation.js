// How withDataTypes presents a stored data type to zarrita: as a type
// zarrita knows (docs/data-types.md). Pure functions of the data type, the
// `floats` option and what the runtime has.
import { parseDataType } from "../types/data-type.js";
import { isVariableLengthBytes } from "../types/variable-length-bytes.js";
import { componentName } from "../fills/stored-fill.js";
import { typeInfo } from "../types/type-info.js";
import { byteStringPresentation } from "./byte-strings.js";
import { variableBytesPresentation } from "./variable-bytes.js";

// What every zarrita 0.5-0.7 reads itself.
const ZARRITA_TYPES = new Set([
  "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
  "float32", "float64",
]);
// zarrita's own variable-length types: not ours to present.
const ZARRITA_ONLY = /^(string|v2:.*)$/;

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

/**
 * @typedef {object} Presentation
 * @property {import("../types/data-type.js").DataType} dataType  the stored type, parsed
 * @property {string} presented   the type zarrita sees
 * @property {string} component   the stored type of one presented value
 *   (a complex type's component, uint8 for raw and record bytes)
 * @property {number} trailing    the extra last dimension (2 for complex,
 *   the element's bytes for raw and records), 0 for none
 * @property {boolean} widen      values are widened to float32
 * @property {boolean} codec      the array -> bytes codec must convert
 *   (the stored codec), not zarrita's or ours for the presented type
 * @property {string} kind        "int", "float", "raw", "record", "string",
 *   "time", "byte-string", "variable-bytes" or "zarrita" (a component
 *   zarrita reads itself)
 * @property {(where: string, entry: {name: string, configuration?: unknown}) => object | undefined} [arrayToBytes]
 *   types whose array -> bytes codec zarrita runs (byte-strings.js,
 *   variable-bytes.js): the presented entry of a codec entry, undefined
 *   where it is no array -> bytes codec of the type; throws for one that
 *   cannot encode the type
 */

/**
 * How `dataType` (parsed) is presented, or null where zarrita reads it as
 * it is.
 * @returns {Presentation | null}
 */
export function presentationOfType(dataType, floats) {
  const t = dataType.info;
  const base = { dataType, trailing: 0, widen: false };
  if (dataType.nullTerminated) return byteStringPresentation(dataType);
  if (dataType.time) return { ...base, presented: "int64", component: "int64", codec: false, kind: "time" };
  if (dataType.record) {
    return { ...base, presented: "uint8", component: "uint8", trailing: dataType.bytes, codec: true, kind: "record" };
  }
  if (t.typeClass === "string") {
    // An Array of JavaScript strings (string-codec.js): zarrita's
    // fixed-width container indexes by UTF-16 unit and drops U+0000.
    return { ...base, presented: "v2:object", component: dataType.descriptor, codec: true, kind: "string" };
  }
  if (t.typeClass === "raw") {
    return { ...base, presented: "uint8", component: "uint8", trailing: t.containerBytes, codec: true, kind: "raw" };
  }
  if (zarritaReads(t.name)) return null;
  const complex = t.componentCount === 2;
  const component = complex ? componentName(t.name) : t.name;
  return { ...base, ...presentComponent(component, floats), component, trailing: complex ? 2 : 0 };
}

/**
 * How `spec` (a data type as metadata gives it) is presented, or null
 * where zarrita reads it as it is.
 * @returns {Presentation | null}
 */
export function presentationOf(where, spec, floats) {
  if (passesThrough(spec)) return null;
  if (isVariableLengthBytes(spec)) return variableBytesPresentation();
  const dataType = parseDataType(where, spec);
  const p = presentationOfType(dataType, floats);
  if (p || typeof spec === "string") return p;
  // A type zarrita reads, in object form ({ "name": "int16" }): only the
  // name is presented.
  const name = dataType.info.name;
  return { dataType, presented: name, component: name, trailing: 0, widen: false, codec: false, kind: "zarrita" };
}

// One real component of type `name`.
function presentComponent(name, floats) {
  if (zarritaReads(name)) {
    return { presented: name, widen: false, codec: false, kind: "zarrita" };
  }
  const t = typeInfo(name);
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
