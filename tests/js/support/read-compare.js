// read() against zarr.get(): the same container class, the same shape, and
// the same value at every index, bit for bit (zarr.get may return another
// memory order, a transposed array's: values are compared by index, through
// each result's strides).
import { diagnostics } from "../../../js/index.js";

function valueBytes(data, index) {
  const size = data.BYTES_PER_ELEMENT;
  return new Uint8Array(data.buffer, data.byteOffset + index * size, size);
}

function sameElement(a, ai, b, bi) {
  if (typeof a.BYTES_PER_ELEMENT === "number" && a.buffer) {
    const x = valueBytes(a, ai);
    const y = valueBytes(b, bi);
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }
  const va = typeof a.get === "function" ? a.get(ai) : a[ai];
  const vb = typeof b.get === "function" ? b.get(bi) : b[bi];
  // Values that are bytes (Uint8Array items; and the ArrayBuffers zarrita
  // hands out where metadata names a codec that cannot make its values)
  // are the same when their bytes are.
  const bytesOf = (v) => (v instanceof ArrayBuffer ? new Uint8Array(v) : ArrayBuffer.isView(v) ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : undefined);
  const [x, y] = [bytesOf(va), bytesOf(vb)];
  if (x && y) return x.length === y.length && x.every((v, i) => v === y[i]);
  return Object.is(va, vb);
}

/**
 * "" where `ours` and `theirs` (results of read and zarr.get) agree, else
 * a description of the first difference.
 */
export function difference(ours, theirs) {
  if (ours === null || typeof ours !== "object" || !("data" in ours)) {
    return Object.is(ours, theirs) || (typeof ours === "bigint" && ours === theirs) ? "" : `scalar ${String(ours)} vs ${String(theirs)}`;
  }
  if (ours.data.constructor !== theirs.data.constructor) {
    return `container ${ours.data.constructor?.name} vs ${theirs.data.constructor?.name}`;
  }
  if (JSON.stringify(ours.shape) !== JSON.stringify(theirs.shape)) {
    return `shape ${JSON.stringify(ours.shape)} vs ${JSON.stringify(theirs.shape)}`;
  }
  const { shape } = ours;
  const n = shape.reduce((a, b) => a * b, 1);
  const index = new Array(shape.length).fill(0);
  for (let k = 0; k < n; k++) {
    const ai = index.reduce((s, v, i) => s + v * ours.stride[i], 0);
    const bi = index.reduce((s, v, i) => s + v * theirs.stride[i], 0);
    if (!sameElement(ours.data, ai, theirs.data, bi)) return `value at [${index.join(", ")}] differs`;
    for (let i = shape.length - 1; i >= 0 && ++index[i] === shape[i]; i--) index[i] = 0;
  }
  return "";
}

/** C-order strides: read's results always have them. */
export function cOrder(shape) {
  const stride = new Array(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

/**
 * The chunks each of read's paths placed while `run` ran (diagnostics():
 * decoded, n5, copied, filled, viaZarrita).
 */
export async function pathsTaken(run) {
  const before = diagnostics().reads();
  const value = await run();
  const after = diagnostics().reads();
  const taken = {};
  for (const key of Object.keys(after)) taken[key] = after[key] - before[key];
  return { value, taken };
}
