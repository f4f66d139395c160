// byteStrings(data): the exact values of a byte-string result. zarr.get of
// a null_terminated_bytes or v2 "|S<n>" array gives zarrita's
// ByteStringArray, whose buffer holds the stored bytes exactly, but whose
// get(i) decodes them as UTF-8 (a byte that is no UTF-8 becomes U+FFFD)
// and removes every NUL, interior ones too. numpy's value of an element is
// its bytes up to the trailing NULs, interior NULs and every byte kept:
// that is what this gives, as views of the result's buffer.
import { describe, ZarrCodecError } from "../errors.js";

/**
 * @param {{buffer: ArrayBufferLike, byteOffset: number, byteLength: number, chars: number}} data
 *   what zarr.get returned as `data` (or a chunk's data) for a byte-string array
 * @returns {Uint8Array[]} one view per element, trailing NULs left out
 */
export function byteStrings(data) {
  const bytes = bytesOf(data);
  const width = data.chars;
  const out = new Array(bytes.length / width);
  for (let i = 0, at = 0; i < out.length; i++, at += width) {
    let end = at + width;
    while (end > at && bytes[end - 1] === 0) end--;
    out[i] = bytes.subarray(at, end);
  }
  return out;
}

// The result's bytes, checked; anything else is the package's error.
function bytesOf(data) {
  try {
    const { buffer, byteOffset, byteLength, chars } = data;
    const tag = Object.prototype.toString.call(buffer);
    if (
      (tag === "[object ArrayBuffer]" || tag === "[object SharedArrayBuffer]") &&
      Number.isSafeInteger(chars) && chars >= 1 && Number.isSafeInteger(byteLength) && byteLength % chars === 0
    ) {
      return new Uint8Array(buffer, byteOffset, byteLength);
    }
  } catch {
    // a getter that throws, a range past a (detached) buffer: refused below
  }
  throw new ZarrCodecError(
    "INVALID_INPUT",
    `byteStrings: expected zarrita's byte strings (a ByteStringArray: buffer, byteOffset, byteLength and chars), got ${describe(data)}`,
  );
}
