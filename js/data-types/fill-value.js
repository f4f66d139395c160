// A fill value as withDataTypes presents it to zarrita: parsed once into
// the stored element's bytes (fills/stored-fill.js), then everything here
// is derived from those bytes, by the same rules that present a stored
// chunk: the presented element (its bytes, in the presented container:
// int4 sign-extended to int8, float8 widened to float32 by the core's
// kernels, a complex value's two components, a record's bytes, a string),
// the JSON value zarrita's metadata gets, and whether zarrita's own fill
// with that value would write the very same bytes. Where it would not (a
// NaN's payload, complex or record parts that differ, byte values no JSON
// gives zarrita), the fill is shown for messages and missing chunks are
// filled by withDataTypes itself (its array extension, zarrita 0.7) or
// refused (0.5, 0.6), never read as another value.
import { BytesCodec } from "../codecs/bytes.js";
import { containerFor } from "../codecs/containers.js";
import { stringsFromCodeUnits } from "../codecs/utf32-strings.js";
import { showBytes } from "../fills/byte-fill.js";
import { showFill } from "../fills/refusal.js";
import { storedFill, variableBytesFill } from "../fills/stored-fill.js";
import { filledVariableBytes } from "./variable-bytes.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * @typedef {object} PresentedFill
 * @property {unknown} value  the fill_value zarrita's metadata gets
 * @property {Uint8Array | unknown[] | undefined} element  one presented
 *   element: its bytes in the presented container, or for containers of
 *   JavaScript values (strings) an Array of the one value
 * @property {Uint8Array} [byteString]  a byte string's element: its bytes,
 *   zero-padded, as zarrita's ByteStringArray holds them
 * @property {string | undefined} beyondZarrita  the fill as messages show
 *   it, where zarrita's own fill with `value` would read another value
 * @property {{shown: string, why: string, chunk?: (p: object) => object, bytes?: Uint8Array} | undefined} objectFill
 *   byte values zarrita cannot fill with at all: how messages show them,
 *   why, where withDataTypes can, a missing chunk, and for read the
 *   value's bytes (variable-length bytes)
 */

/**
 * @param {string} where
 * @param {import("./presentation.js").Presentation} p
 * @param {unknown} fill the metadata's JSON value (exact: json/lossless.js)
 * @param {import("../fills/stored-fill.js").FillOptions} [options]
 * @returns {PresentedFill}
 */
export function presentFill(where, p, fill, options = {}) {
  if (p.kind === "variable-bytes") {
    const bytes = variableBytesFill(where, fill, options);
    return {
      value: null,
      element: undefined,
      beyondZarrita: undefined,
      objectFill: {
        shown: showBytes(bytes),
        why:
          "this zarrita fills a missing chunk with the metadata's fill_value itself, which cannot be a Uint8Array, so the read is refused " +
          "(zarrita >= 0.7 fills it, through withDataTypes' array extension)",
        chunk: filledVariableBytes(bytes),
        bytes,
      },
    };
  }
  const bytes = storedFill(where, p.dataType, fill, options);
  if (fill === null && options.v2) {
    // Zarr v2's "no fill": zarrita fills with null, which its typed arrays
    // hold as 0 (BigInt ones refuse it: "0" says the same to every zarrita).
    const shown = presentBytes(p, bytes);
    const value = p.kind === "string" || p.kind === "byte-string" ? "" : p.presented === "int64" || p.presented === "uint64" ? "0" : null;
    return { ...shown, value };
  }
  const shown = presentBytes(p, bytes);
  if (shown.beyondZarrita !== undefined) shown.beyondZarrita = p.trailing ? showElement(p, shown.element) : showFill(fill);
  return shown;
}

/**
 * The presented fill of an array zarrita reads as it is (bool, the
 * integers, float32, float64; float16 with Float16Array): its stored bytes
 * are its presented bytes.
 * @param {string} where
 * @param {import("../types/data-type.js").DataType} type
 * @param {unknown} fill
 * @param {import("../fills/stored-fill.js").FillOptions} [options]
 * @returns {PresentedFill}
 */
export function nativeFill(where, type, fill, options = {}) {
  const name = type.info.name;
  const p = { dataType: type, presented: name, kind: "zarrita", trailing: 0, widen: false };
  return presentFill(where, p, fill, options);
}

// An element with a trailing dimension (complex parts, record or raw
// bytes) as messages show it: its presented values.
function showElement(p, element) {
  const Container = containerFor(p.presented);
  const values = Array.from(new Container(element.buffer, element.byteOffset, element.byteLength / Container.BYTES_PER_ELEMENT));
  const shown = (v) => (typeof v === "bigint" ? String(v) : Number.isFinite(v) ? v : String(v));
  return `${JSON.stringify(values.map(shown))} (one element along the trailing dimension)`;
}

// The presented element of stored bytes, and zarrita's view of it.
function presentBytes(p, bytes) {
  if (p.kind === "byte-string") return byteStringFill(bytes);
  if (p.kind === "string") {
    const units = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const [text] = stringsFromCodeUnits(units, p.dataType.codePoints);
    return { value: text, element: [text], beyondZarrita: undefined, objectFill: undefined };
  }
  const element = p.widen ? widened(p, bytes) : bytes;
  const Container = containerFor(p.presented);
  const values = Array.from(new Container(element.buffer, element.byteOffset, element.byteLength / Container.BYTES_PER_ELEMENT));
  const value = jsonValue(p.presented, values[0]);
  return { value, element, beyondZarrita: zarritaFills(p.presented, value, element) ? undefined : "", objectFill: undefined };
}

// A narrow float's components widened to float32 by the core, as a
// stored chunk's are.
function widened(p, bytes) {
  const count = p.trailing || 1;
  const codec = new BytesCodec({ endian: "little" }, { dataType: p.component, shape: [count] }, { floats: "float32" });
  try {
    const data = codec.decode(bytes).data;
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  } finally {
    codec.dispose();
  }
}

/** One presented value as JSON metadata holds it, for zarrita to parse. */
function jsonValue(presented, v) {
  if (typeof v === "bigint") return String(v); // every zarrita: BigInt(fill_value)
  if (presented === "bool") return v !== 0;
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  return v;
}

/**
 * Whether zarrita, given `value` as the metadata's fill_value, fills
 * every value of an element with exactly `element`'s bytes: it reads the
 * metadata with JSON.parse (a BigInt literal here is a number there),
 * parses the special float strings and BigInt(value) for 64-bit integers,
 * then calls its container's fill (which makes any other string a
 * number, "0x3fc00000" 1069547520).
 * @param {string} presented the data type zarrita sees
 * @param {unknown} value
 * @param {Uint8Array} element
 */
export function zarritaFills(presented, value, element) {
  const Container = containerFor(presented);
  let parsed = typeof value === "bigint" ? Number(value) : value;
  try {
    if (presented === "int64" || presented === "uint64") parsed = BigInt(parsed);
    else if (parsed === "NaN" || parsed === "Infinity" || parsed === "-Infinity") parsed = Number(parsed);
    else if (typeof parsed === "boolean") parsed = parsed ? 1 : 0;
    const count = element.byteLength / Container.BYTES_PER_ELEMENT;
    const filled = new Uint8Array(new Container(count).fill(parsed).buffer);
    return filled.every((b, i) => b === element[i]);
  } catch {
    return false; // zarrita's fill throws
  }
}

// Byte strings: zarrita fills with the string whose UTF-8 is the fill's
// bytes (its ByteStringArray.fill writes UTF-8, zero-padded); where the
// bytes are no UTF-8, no string writes them, and missing chunks are
// refused (UNFILLABLE_CHUNK) rather than read wrong.
function byteStringFill(bytes) {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  const used = bytes.subarray(0, end);
  try {
    return { value: utf8.decode(used), element: undefined, byteString: bytes, beyondZarrita: undefined, objectFill: undefined };
  } catch {
    return {
      value: "",
      element: undefined,
      byteString: bytes,
      beyondZarrita: undefined,
      objectFill: {
        shown: showBytes(used),
        why: "zarrita fills a missing chunk with a string's UTF-8 bytes, and these bytes are no UTF-8, so the read is refused",
      },
    };
  }
}
