// Records -> the bytes of a Zarr struct array as withDataTypes presents it
// (uint8 with a trailing dimension of the record's size): the fields in
// declared order with no padding, as the struct page lays a record out,
// every multi-byte field little-endian whatever the bytes codec says (the
// stored codec swaps them on the way to disk). The sample store writes its
// detections with this; nothing here knows the sample's formulas.

/**
 * float16 bits of `value`, which must be a float16 value exactly: the
 * sample only uses such values, so no rounding rule has to be chosen here.
 */
export function float16Bits(value) {
  if (value === 0) return Object.is(value, -0) ? 0x8000 : 0;
  const sign = value < 0 ? 0x8000 : 0;
  const a = Math.abs(value);
  let e = 15;
  while (e > -14 && a < 2 ** e) e--;
  // Normal numbers: 1.m * 2^e with 10 mantissa bits; below 2^-14, m * 2^-24.
  const normal = a >= 2 ** -14;
  const m = normal ? (a / 2 ** e - 1) * 1024 : a / 2 ** -24;
  if (!(Number.isInteger(m) && m < 1024 && a < 65520)) throw new RangeError(`${value} is not a float16 value`);
  return sign | (normal ? (e + 15) << 10 : 0) | m;
}

/** Bytes of one field of each type this packer writes. */
function fieldBytes(type) {
  if (type === "float32") return 4;
  if (type === "float16") return 2;
  if (type?.name === "fixed_length_utf32") return type.configuration.length_bytes;
  throw new TypeError(`packRecords: no packing for field type ${JSON.stringify(type)}`);
}

/**
 * @param {{name: string, data_type: unknown}[]} fields the struct's fields,
 *   as its metadata lists them (float32, float16, fixed_length_utf32)
 * @param {Record<string, unknown>[]} records one object per record
 * @returns {{bytes: Uint8Array, recordBytes: number}}
 */
export function packRecords(fields, records) {
  const sizes = fields.map((f) => fieldBytes(f.data_type));
  const recordBytes = sizes.reduce((a, b) => a + b, 0);
  const bytes = new Uint8Array(records.length * recordBytes);
  const view = new DataView(bytes.buffer);
  records.forEach((record, i) => {
    let at = i * recordBytes;
    fields.forEach(({ name, data_type: type }, k) => {
      const value = record[name];
      if (type === "float32") view.setFloat32(at, value, true);
      else if (type === "float16") view.setUint16(at, float16Bits(value), true);
      else {
        // UTF-32: one code point per 4 bytes, zeros after the last.
        const points = Array.from(value, (c) => c.codePointAt(0));
        if (4 * points.length > sizes[k]) throw new RangeError(`${JSON.stringify(value)} does not fit ${sizes[k]} bytes of UTF-32`);
        points.forEach((p, j) => view.setUint32(at + 4 * j, p, true));
      }
      at += sizes[k];
    });
  });
  return { bytes, recordBytes };
}
