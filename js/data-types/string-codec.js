// The stored codec of a fixed_length_utf32 array that withDataTypes
// presents as "v2:object": zarrita holds the values in a plain Array, as
// it holds its own variable-length strings, so every Unicode scalar value
// (astral ones included) and an interior U+0000 survive reads and writes.
// zarrita's fixed-width container (UnicodeStringArray) cannot: it indexes
// by UTF-16 unit and drops every U+0000.
//
// The core's bytes codec decodes the stored code units in wasm (byte
// order, and no unit past U+10FFFF); utf32-strings.js turns them into
// strings, and strings back into code units, which the core checks and
// orders again on encode.
import { cOrderStrides } from "../codecs/chunk.js";
import { codeUnitsFromStrings, stringsFromCodeUnits } from "../codecs/utf32-strings.js";
import { describe, ZarrCodecError } from "../errors.js";

/** A chunk's values to encode: `count` of them, read without trusting the chunk. */
function valuesOf(name, chunk, count) {
  let data;
  let length;
  try {
    data = chunk === null || typeof chunk !== "object" ? undefined : chunk.data;
    length = data === null || typeof data !== "object" ? undefined : data.length;
  } catch (cause) {
    throw new ZarrCodecError("INVALID_INPUT", `${name}: reading chunk.data failed (${describe(cause?.message ?? cause)})`, { cause });
  }
  if (length !== count) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${name}: encode needs chunk.data as an Array of ${count} strings, got ${describe(data)}`,
    );
  }
  return data;
}

export class StringCodec {
  kind = "array_to_bytes";
  #units;
  #codePoints;
  #shape;
  #stride;
  #count;
  #name;

  /**
   * @param {import("../codecs/bytes.js").BytesCodec} units the core codec of
   *   the stored type (code units in a Uint32Array)
   * @param {number} codePoints the type's capacity
   * @param {number[]} shape the chunk's shape
   */
  constructor(units, codePoints, shape) {
    this.#units = units;
    this.#codePoints = codePoints;
    this.#shape = shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#count = this.#shape.reduce((a, b) => a * b, 1);
    this.#name = `bytes: fixed_length_utf32 of ${codePoints} code points shape [${this.#shape.join(", ")}]`;
  }

  /** @returns {{data: string[], shape: number[], stride: number[]}} */
  decode(bytes) {
    const { data } = this.#units.decode(bytes);
    return { data: stringsFromCodeUnits(data, this.#codePoints), shape: this.#shape, stride: this.#stride };
  }

  /** @param {{data: ArrayLike<string>}} chunk */
  encode(chunk) {
    const values = valuesOf(this.#name, chunk, this.#count);
    const units = codeUnitsFromStrings(this.#name, values, this.#count, this.#codePoints);
    return this.#units.encode({ data: units, shape: this.#shape, stride: this.#stride });
  }

  /** Frees the wasm side now (it is freed when collected otherwise). */
  dispose() {
    this.#units.dispose();
  }
}
if (typeof Symbol.dispose === "symbol") StringCodec.prototype[Symbol.dispose] = StringCodec.prototype.dispose;
