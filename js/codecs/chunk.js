// Checking and viewing what users hand to encode and decode.
import { describe, tagOf, withArticle, ZarrCodecError } from "../errors.js";

/** C-order strides of a shape, in elements. */
export function cOrderStrides(shape) {
  const stride = new Array(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

// Realm-independent tests (instanceof fails for buffers from another realm:
// an iframe, a worker message, a vm context).
function isBufferLike(x) {
  const tag = Object.prototype.toString.call(x);
  return tag === "[object ArrayBuffer]" || tag === "[object SharedArrayBuffer]";
}

/** A Uint8Array on `buffer`; a detached (transferred) buffer is an error. */
function byteView(codec, what, buffer, offset, length) {
  try {
    return new Uint8Array(buffer, offset, length);
  } catch (cause) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${codec}: ${what} is on a detached ArrayBuffer (it was transferred)`,
      { cause },
    );
  }
}

/**
 * The bytes behind an encoded input or a chunk's data, as a Uint8Array view
 * (no copy). Accepts TypedArrays, DataViews, ArrayBuffers and zarrita's
 * BoolArray (anything with buffer, byteOffset and byteLength).
 */
export function bytesOf(codec, what, value) {
  try {
    // The common case, cheaply (small chunks pay for every check): a
    // Uint8Array of this realm on a live buffer (a detached one has no
    // bytes). instanceof itself runs a Proxy's getPrototypeOf trap.
    if (value instanceof Uint8Array && value.byteLength !== 0) return value;
    return bytesOfAny(codec, what, value);
  } catch (cause) {
    if (cause instanceof ZarrCodecError) throw cause;
    // A Proxy or getter that threw while we looked at it.
    throw new ZarrCodecError("INVALID_INPUT", `${codec}: reading ${what} failed (${describe(cause?.message ?? cause)})`, { cause });
  }
}

function bytesOfAny(codec, what, value) {
  if (isBufferLike(value)) return byteView(codec, what, value, 0, undefined);
  if (
    ArrayBuffer.isView(value) ||
    (value !== null &&
      typeof value === "object" &&
      isBufferLike(value.buffer) &&
      Number.isInteger(value.byteOffset) &&
      Number.isInteger(value.byteLength))
  ) {
    return byteView(codec, what, value.buffer, value.byteOffset, value.byteLength);
  }
  throw new ZarrCodecError(
    "INVALID_INPUT",
    `${codec}: ${what} must be a TypedArray or ArrayBuffer, got ${describe(value)}`,
  );
}

/**
 * Whether `value` holds a data type's decoded values: its own container
 * (`ArrayType`), zarrita's BoolArray where that is Uint8Array (bool) or its
 * UnicodeStringArray where it is Uint32Array (fixed-length strings), or
 * Uint16Array bit patterns where the runtime's Float16Array is used. Any
 * other array of the same byte length would be reinterpreted silently.
 */
function isContainer(ArrayType, value) {
  try {
    if (value instanceof ArrayType) return true; // this realm's: cheap
    if (value === null || typeof value !== "object") return false;
    return isForeignContainer(ArrayType, value);
  } catch {
    return false; // a Proxy that throws (instanceof runs its traps) is no container
  }
}

function isForeignContainer(ArrayType, value) {
  const tag = tagOf(value);
  const zarritaClass = tag === "Object" ? value.constructor?.name : undefined;
  return (
    tag === ArrayType.name ||
    (ArrayType === Uint8Array && zarritaClass === "BoolArray") ||
    (ArrayType === Uint32Array && zarritaClass === "UnicodeStringArray") ||
    (ArrayType.name === "Float16Array" && tag === "Uint16Array")
  );
}

function found(value) {
  try {
    if (value !== null && typeof value === "object" && Number.isInteger(value.byteLength)) {
      return `${describe(value)} of ${value.byteLength} bytes`;
    }
  } catch {
    // a Proxy that throws: described without its length
  }
  return describe(value);
}

/**
 * The bytes of a chunk `{ data, shape, stride }` passed to encode, whose
 * data must be `ArrayType` (see isContainer). No copy.
 */
export function chunkBytes(codec, chunk, ArrayType) {
  let data;
  try {
    if (chunk === null || typeof chunk !== "object" || !("data" in chunk)) data = chunkBytes;
    else data = chunk.data;
  } catch (cause) {
    throw new ZarrCodecError("INVALID_INPUT", `${codec}: reading chunk.data failed (${describe(cause?.message ?? cause)})`, { cause });
  }
  if (data === chunkBytes) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${codec}: encode expects a chunk { data, shape, stride }, got ${describe(chunk)}`,
    );
  }
  if (!isContainer(ArrayType, data)) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${codec}: encode needs chunk.data as ${withArticle(ArrayType.name)}, got ${found(data)}`,
    );
  }
  return bytesOf(codec, "chunk.data", data);
}

/**
 * `bytes` viewed as `ArrayType` without copying, or copied once when the
 * offset is not a multiple of the element size (a view would throw).
 */
export function viewAs(ArrayType, bytes) {
  const size = ArrayType.BYTES_PER_ELEMENT;
  if (bytes.byteOffset % size !== 0) bytes = bytes.slice();
  return new ArrayType(bytes.buffer, bytes.byteOffset, bytes.byteLength / size);
}

/**
 * A fresh zero-filled array of `byteLength` bytes; allocation failures
 * become the package's error instead of a RangeError.
 */
export function allocate(codec, ArrayType, byteLength) {
  try {
    return new ArrayType(byteLength / ArrayType.BYTES_PER_ELEMENT);
  } catch (cause) {
    throw new ZarrCodecError(
      "OUT_OF_MEMORY",
      `${codec}: cannot allocate ${byteLength} bytes for the output`,
      { cause },
    );
  }
}

/**
 * The bytes of `out`, the caller's array for decodeInto: the data type's
 * container (see isContainer), exactly `byteLength` long, not overlapping
 * `input`. `last` remembers the previous call's output and its view, as
 * decodeInto is made for reusing one tile buffer: a small chunk's call
 * then allocates nothing.
 */
export function outputBytes(codec, ArrayType, byteLength, out, input, last = {}) {
  let bytes;
  // last.bytes guards the first call, when last.out is still undefined
  if (last.bytes !== undefined && out === last.out && out.byteLength === byteLength) {
    bytes = last.bytes;
  } else {
    if (!isContainer(ArrayType, out) || out.byteLength !== byteLength) {
      throw new ZarrCodecError(
        "INVALID_INPUT",
        `${codec}: decodeInto needs ${withArticle(ArrayType.name)} of ${byteLength} bytes, got ${found(out)}`,
      );
    }
    bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    last.out = out;
    last.bytes = bytes;
  }
  if (
    bytes.buffer === input.buffer &&
    bytes.byteOffset < input.byteOffset + input.byteLength &&
    input.byteOffset < bytes.byteOffset + bytes.byteLength
  ) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${codec}: decodeInto's output overlaps its input`,
    );
  }
  return bytes;
}
