// Which JS array holds each decoded data type (docs/data-types.md), by the
// element type the core reports for a codec (bindings: valueType()).

const ARRAYS = new Map([
  ["bool", Uint8Array],
  ["int8", Int8Array],
  ["uint8", Uint8Array],
  ["int16", Int16Array],
  ["uint16", Uint16Array],
  ["int32", Int32Array],
  ["uint32", Uint32Array],
  ["int64", BigInt64Array],
  ["uint64", BigUint64Array],
  ["float32", Float32Array],
  ["float64", Float64Array],
  // fixed_length_utf32's code units (zarrita's UnicodeStringArray wraps them).
  ["utf32", Uint32Array],
]);

/**
 * The TypedArray constructor for decoded values of `valueType`: float16
 * goes into Float16Array where the runtime has one, else into Uint16Array
 * bit patterns.
 */
export function containerFor(valueType) {
  if (valueType === "float16") return globalThis.Float16Array ?? Uint16Array;
  return ARRAYS.get(valueType);
}
