// fixed_length_utf32 values as JavaScript strings, from and to the code
// units the core decodes and encodes (it swaps their bytes and checks
// them in wasm). This is how withDataTypes presents the type: an Array of
// strings, as zarrita presents its own variable-length strings.
//
// Reading follows the type's page: trailing U+0000 is padding and is
// removed, an interior U+0000 is kept (numpy keeps it too), and every code
// point converts, one above U+FFFF to its surrogate pair. A stored
// surrogate (numpy stores any code point) reads as that one code unit.
//
// Writing counts code points, not UTF-16 units: a string holds at most the
// type's capacity, and only Unicode scalar values. A lone surrogate is
// refused: it is what a string cut inside a surrogate pair leaves behind,
// and UTF-32 has no code for it. Nothing is returned unless every string
// converts, so a refused write stores nothing.
import { describe, ZarrCodecError } from "../errors.js";
import { allocate } from "./chunk.js";

// UTF-16 units per String.fromCharCode call: well inside every engine's
// limit on arguments.
const CALL_UNITS = 8192;
// UTF-16 units converted into one string before it is sliced into the
// values: bounds the scratch memory and keeps clear of the longest string
// an engine allows.
const GROUP_UNITS = 1 << 16;

/** The text of the first `length` UTF-16 units of `buffer`. */
function textOf(buffer, length) {
  let text = "";
  for (let at = 0; at < length; at += CALL_UNITS) {
    text += String.fromCharCode.apply(null, buffer.subarray(at, Math.min(length, at + CALL_UNITS)));
  }
  return text;
}

/**
 * The strings of `units` (little-endian code units as the core decoded
 * them, each at most U+10FFFF), `codePoints` units each.
 * @param {Uint32Array} units
 * @param {number} codePoints
 * @returns {string[]}
 */
export function stringsFromCodeUnits(units, codePoints) {
  const count = units.length / codePoints;
  const out = new Array(count);
  const buffer = new Uint16Array(Math.max(GROUP_UNITS, 2 * codePoints));
  const ends = new Uint32Array(count);
  let s = 0;
  while (s < count) {
    // A group of strings converted into one text, then sliced: one call
    // per CALL_UNITS units instead of one (or more) per string.
    const first = s;
    let w = 0;
    for (; s < count && w + 2 * codePoints <= buffer.length; s++) {
      const start = s * codePoints;
      let end = start + codePoints;
      while (end > start && units[end - 1] === 0) end--;
      for (let i = start; i < end; i++) {
        const u = units[i];
        if (u < 0x10000) {
          buffer[w++] = u;
        } else {
          const v = u - 0x10000;
          buffer[w++] = 0xd800 | (v >> 10);
          buffer[w++] = 0xdc00 | (v & 0x3ff);
        }
      }
      ends[s] = w;
    }
    const text = textOf(buffer, w);
    let start = 0;
    for (let i = first; i < s; i++) {
      out[i] = text.slice(start, ends[i]);
      start = ends[i];
    }
  }
  return out;
}

const hex = (unit) => `U+${unit.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The code units of `count` strings of `values` (an Array, or anything
 * indexable), `codePoints` units each, padded with U+0000. `what` starts
 * the messages ("bytes: fixed_length_utf32 of 3 code points shape [4]").
 * @returns {Uint32Array}
 */
export function codeUnitsFromStrings(what, values, count, codePoints) {
  const units = allocate(what, Uint32Array, 4 * count * codePoints);
  for (let s = 0; s < count; s++) {
    let text;
    try {
      text = values[s];
    } catch (cause) {
      throw new ZarrCodecError("INVALID_INPUT", `${what}: reading the value at index ${s} failed (${describe(cause?.message ?? cause)})`, { cause });
    }
    if (typeof text !== "string") {
      throw new ZarrCodecError("INVALID_INPUT", `${what}: expected a string at index ${s}, got ${describe(text)}`);
    }
    let w = s * codePoints;
    const end = w + codePoints;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdfff) {
        const low = c <= 0xdbff && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
        if (low < 0xdc00 || low > 0xdfff) {
          throw new ZarrCodecError(
            "VALUE_OUT_OF_RANGE",
            `${what}: the string at index ${s} holds a lone surrogate ${hex(c)} at UTF-16 position ${i}, ` +
              "which is no Unicode scalar value (UTF-32 cannot store it)",
          );
        }
        c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
      if (w === end) {
        throw new ZarrCodecError(
          "VALUE_OUT_OF_RANGE",
          `${what}: the string at index ${s} has more than ${codePoints} code points, the capacity of the stored type`,
        );
      }
      units[w++] = c;
    }
  }
  return units;
}
