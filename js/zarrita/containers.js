// zarrita's own containers: BoolArray for bool, UnicodeStringArray for
// fixed-width strings (the arrays zarrita reads itself: v2 "<U" without
// withDataTypes), ByteStringArray for byte strings. Taken from the registry's own `bytes` codec (so it is
// the caller's zarrita copy) by decoding one element with it; without
// one, bools stay Uint8Array and strings their Uint32Array code units.
// The last registered zarrita's BoolArray is also what structFields hands
// out.

let last = {};

// zarrita's containers take an ArrayBuffer of their own realm (they test
// `instanceof ArrayBuffer`); bytes from another realm (a test runner's vm
// context, a worker's transfer) are copied into a fresh container instead.
function wrap(bytes, view, fresh) {
  try {
    return view(bytes.buffer);
  } catch {
    const out = fresh();
    new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(bytes);
    return out;
  }
}

function probe(Fallback, dataType, bytes) {
  try {
    return Fallback?.fromConfig({ endian: "little" }, { dataType, data_type: dataType, shape: [1] }).decode(bytes).data;
  } catch {
    return undefined; // not zarrita's BytesCodec
  }
}

/**
 * @returns {{wrapBool?: (bytes: Uint8Array) => unknown,
 *   wrapStrings?: (bytes: Uint8Array, chars: number) => unknown,
 *   wrapByteStrings?: (bytes: Uint8Array, chars: number) => unknown}}
 */
export function zarritaContainers(Fallback) {
  const out = {};
  const bool = probe(Fallback, "bool", new Uint8Array(1));
  const BoolArray = bool?.constructor;
  if (typeof bool?.get === "function" && BoolArray !== Uint8Array) {
    out.wrapBool = (bytes) => wrap(bytes, (buffer) => new BoolArray(buffer, bytes.byteOffset, bytes.byteLength), () => new BoolArray(bytes.byteLength));
  }
  const text = probe(Fallback, "v2:U1", new Uint8Array(4));
  const UnicodeStringArray = text?.constructor;
  if (typeof text?.get === "function" && text.chars === 1) {
    const count = (bytes, chars) => bytes.byteLength / (4 * chars);
    out.wrapStrings = (bytes, chars) =>
      wrap(
        bytes,
        (buffer) => new UnicodeStringArray(chars, buffer, bytes.byteOffset, count(bytes, chars)),
        () => new UnicodeStringArray(chars, count(bytes, chars)),
      );
  }
  const byteString = probe(Fallback, "v2:S1", new Uint8Array(1));
  const ByteStringArray = byteString?.constructor;
  if (typeof byteString?.get === "function" && byteString.chars === 1) {
    const count = (bytes, chars) => bytes.byteLength / chars;
    out.wrapByteStrings = (bytes, chars) =>
      wrap(
        bytes,
        (buffer) => new ByteStringArray(chars, buffer, bytes.byteOffset, count(bytes, chars)),
        () => new ByteStringArray(chars, count(bytes, chars)),
      );
  }
  last = out;
  return out;
}

/** The containers of the zarrita registered last (structFields' strings). */
export function lastZarritaContainers() {
  return last;
}
