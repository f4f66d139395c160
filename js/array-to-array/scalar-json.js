// A scalar of cast_value's scalar_map or scale_offset's scale and offset,
// from the Zarr v3 fill-value JSON encoding of its data type (the pages
// say so): integers as JSON integers (BigInt past 2^53 where the caller's
// JSON kept them), floats as numbers, "NaN", "Infinity", "-Infinity" or a
// hex code of the format's bits, parsed by the package's fill parser
// (js/fills/float-fill.js) so that a scalar and a fill of the same text
// are the same value. Pure JavaScript: no wasm needs to be loaded.
import { describe, ZarrCodecError } from "../errors.js";
import { floatCode } from "../fills/float-fill.js";
import { valueOfCode } from "../floats/float-formats.js";

const bits = new DataView(new ArrayBuffer(8));

/**
 * @param {string} where "cast_value: scalar_map.encode[0][1]"
 * @param {import("./numeric-types.js").NumericType} type
 * @param {unknown} json
 * @returns {number | bigint}
 */
export function parseScalar(where, type, json) {
  if (type.kind === "int") {
    const integral = typeof json === "bigint" || (typeof json === "number" && Number.isInteger(json));
    if (!integral) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${where}: expected an integer for ${type.name}, got ${describe(json)}`);
    }
    if (typeof json === "number" && !Number.isSafeInteger(json) && type.big) {
      throw new ZarrCodecError(
        "INVALID_CONFIGURATION",
        `${where}: ${json} lies beyond 2^53, where a JSON number has already lost its exact value (expected it as a BigInt)`,
      );
    }
    const v = BigInt(json);
    if (v < BigInt(type.min) || v > BigInt(type.max)) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${where}: ${v} is outside ${type.name}'s range ${type.min}..${type.max}`);
    }
    return type.big ? v : Number(v);
  }
  let code;
  try {
    // The cast_value page's own example writes "+Infinity", which is no
    // fill-value encoding; it can only mean "Infinity".
    code = floatCode(where, type.name, json === "+Infinity" ? "Infinity" : json);
  } catch (error) {
    throw new ZarrCodecError("INVALID_CONFIGURATION", error.message.replace(/fill_value /, "scalar "), { cause: error });
  }
  if (type.codes) return valueOfCode(type.format, code);
  if (type.bits === 32) {
    bits.setUint32(0, code);
    return bits.getFloat32(0);
  }
  bits.setBigUint64(0, code);
  return bits.getFloat64(0);
}
