// Which JS array holds each decoded data type (the table in the README).

const INTEGER_ARRAYS = {
  signed: { 1: Int8Array, 2: Int16Array, 4: Int32Array, 8: BigInt64Array },
  unsigned: { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array },
};

const IS_FLOAT16 = /^(complex_)?float16$/;

/**
 * The TypedArray constructor for a data type's decoded values. Bit patterns
 * (bfloat16, float4/6, raw bytes, float16 without Float16Array) are unsigned.
 * @param {{name: string, typeClass: string, containerBytes: number}} info
 */
export function arrayTypeFor(info) {
  const { name, typeClass, containerBytes } = info;
  if (typeClass === "signed" || typeClass === "unsigned") {
    return INTEGER_ARRAYS[typeClass][containerBytes];
  }
  if (typeClass === "float") {
    if (containerBytes === 8) return Float64Array;
    if (containerBytes === 4) return Float32Array;
    if (containerBytes === 2) {
      return IS_FLOAT16.test(name) && globalThis.Float16Array
        ? globalThis.Float16Array
        : Uint16Array;
    }
  }
  return Uint8Array; // bool, raw r*, sub-byte floats
}
