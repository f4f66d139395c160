// A result's values as bytes in C order, for comparing results whatever
// their strides. A module of its own (no Jest import), so that the fuzzers'
// worker threads use it too.

/** zarr.get's or read's result as its values' bytes in C order (through its strides). */
export function cOrderBytes({ data, shape, stride }) {
  const w = data.BYTES_PER_ELEMENT;
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const count = shape.reduce((a, b) => a * b, 1);
  const out = new Uint8Array(count * w);
  const index = new Array(shape.length).fill(0);
  for (let e = 0; e < count; e++) {
    const at = index.reduce((s, v, i) => s + v * stride[i], 0);
    out.set(bytes.subarray(at * w, at * w + w), e * w);
    for (let k = shape.length - 1; k >= 0 && ++index[k] === shape[k]; k--) index[k] = 0;
  }
  return out;
}
