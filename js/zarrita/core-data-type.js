// The data type the core reads for a data type as zarrita names it:
// zarrita's v2 fixed-width strings (v2:U6) are fixed_length_utf32; its own
// byte strings, objects and strings are none of the core's. The bytes
// codec register() sets, read's chain and the compressors' sizes all ask
// here.
import { parseDataType } from "../types/data-type.js";

const V2_UNICODE = /^v2:U([1-9][0-9]{0,6})$/;

/**
 * The data type the core reads for `spec` (parsed; as given where it is
 * malformed, for the codec to refuse), or undefined where it is zarrita's
 * own (v2:S, v2:object, string) or unknown to the core.
 */
export function coreDataType(spec) {
  const unicode = typeof spec === "string" ? V2_UNICODE.exec(spec) : null;
  if (unicode) return { name: "fixed_length_utf32", configuration: { length_bytes: 4 * Number(unicode[1]) } };
  if (typeof spec === "string" && /^(v2:|string$)/.test(spec)) return undefined;
  try {
    // Parsed once: the codec takes the parsed type as it is.
    return parseDataType("bytes", spec);
  } catch (error) {
    // Unknown to the core: zarrita's.
    if (error?.code === "UNKNOWN_DATA_TYPE" || error?.code === "UNSUPPORTED_DATA_TYPE") return undefined;
    // Malformed: the codec refuses it and says why.
    return spec;
  }
}
