// Fills of byte data as metadata gives them: base64 strings (zarr-python
// 3's null_terminated_bytes and variable_length_bytes, Zarr v2's "|S" and
// "|V" fills, legacy structured records, the registry's `bytes`) and the
// registry's other form, an array of byte values. Strict: atob takes more
// than base64 is (whitespace, missing padding), and a fill that reads as
// something else is a wrong value.
import { refuseFill } from "./refusal.js";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A standard-alphabet base64 string's bytes, or undefined where it is none. */
export function base64Bytes(text) {
  if (typeof text !== "string" || !BASE64.test(text)) return undefined;
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** An array of integers 0..255 as bytes, or undefined where it is none. */
export function byteValues(fill) {
  if (!Array.isArray(fill) || !fill.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return undefined;
  return Uint8Array.from(fill);
}

/**
 * A fill of bytes: base64, or where `arrays` allows it an array of byte
 * values.
 * @param {string} where
 * @param {unknown} fill
 * @param {{arrays?: boolean}} [options]
 * @returns {Uint8Array}
 */
export function fillByteString(where, fill, { arrays = false } = {}) {
  const bytes = base64Bytes(fill) ?? (arrays ? byteValues(fill) : undefined);
  if (bytes) return bytes;
  throw refuseFill(
    where,
    fill,
    arrays ? "must be a base64 string or an array of byte values (0..255)" : "must be a base64 string (the bytes, base64-encoded)",
  );
}

/** Bytes as messages show them: b"ab\x00\xff" (Python's notation), at most 32 bytes. */
export function showBytes(bytes) {
  let text = 'b"';
  for (const b of bytes.subarray(0, 32)) {
    if (b === 0x22 || b === 0x5c) text += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) text += String.fromCharCode(b);
    else text += `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return `${text}${bytes.length > 32 ? "..." : ""}"`;
}
