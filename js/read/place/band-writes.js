// Writing one chunk's part of one band (bands.js) in wasm memory, by what
// the chunk is: a missing chunk (or one that failed under chunkErrors:
// "fill") filled with the fill, a chunk read's decoder decodes in place,
// or a chunk zarrita decoded, copied. Each write is described to the core
// as a placement (wasm-placement.js): where the chunk's selected elements
// go in the band, axis by axis.
import { ZarrCodecError } from "../../errors.js";
import { outputStrides, zarritaFill } from "./output.js";
import { copyInPlace, describe as describePlacement, fillInPlace } from "./wasm-placement.js";

/**
 * The output's layout in bytes: per axis of the array the output's byte
 * stride (0 where the selection dropped the axis), the first axis kept
 * (bands are runs of its rows) and the bytes of one of its rows.
 * @param {object[]} axes the resolved selection
 * @param {number} elementBytes
 * @returns {{strideBytes: number[], first: number, rowBytes: number}}
 */
export function outputLayout(axes, elementBytes) {
  const strideBytes = outputStrides(axes, elementBytes);
  const first = axes.findIndex((a) => !a.dropped);
  return { strideBytes, first, rowBytes: strideBytes[first] };
}

// Storage order of a chunk zarrita decoded: its axes by decreasing stride
// (a transposed chunk's are permuted), checked to be dense.
function storageOrder(shape, stride) {
  const order = shape.map((_, i) => i).sort((a, b) => stride[b] - stride[a] || a - b);
  let step = 1;
  for (let j = order.length - 1; j >= 0; j--) {
    const axis = order[j];
    if (shape[axis] > 1 && stride[axis] !== step) return undefined;
    step *= shape[axis];
  }
  return order;
}

/**
 * @param {object} w
 * @param {object} w.module   the wasm module the bands live in
 * @param {import("../plan/plan.js").Plan} w.plan
 * @param {object[]} w.axes   the resolved selection
 * @param {{strideBytes: number[], first: number}} w.layout  outputLayout's
 * @returns {(c: object, band: import("./bands.js").Band, where: () => string) => void}
 *   the chunk's part of `band` written (a frame refused whole leaves the
 *   band untouched: the chain decodes a frame before it places any of it)
 */
export function bandWriter({ module, plan, axes, layout }) {
  const { za, decoder } = plan;
  const { strideBytes, first } = layout;
  const rank = axes.length;
  // A chunk that failed under chunkErrors: "fill" where zarrita would have
  // filled the array's missing chunks: zarrita's fill, made when needed.
  let fill = plan.fill;
  const fillElement = () => (fill ??= zarritaFill(plan.Container, za.fillValue));

  // The placement of chunk `c` into band `band`, written to wasm memory:
  // along the first axis only the band's rows; the axes in `order` where
  // the chunk's elements are stored in another order.
  function placement(c, band, order) {
    const descAxes = new Array(rank);
    let base = 0;
    for (let i = 0; i < rank; i++) {
      const m = c.mapping[i];
      let { from, count, out: at } = m;
      if (i === first) {
        const lo = Math.max(at, band.r0);
        const hi = Math.min(at + count, band.r1);
        from += (lo - at) * m.step;
        count = Math.max(0, hi - lo);
        at = lo - band.r0;
      }
      base += at * strideBytes[i];
      descAxes[i] = { extent: axes[i].virtual ? 1 : za.chunkShape[i], from, count, step: m.step, stride: strideBytes[i] };
    }
    return describePlacement(module, plan.elementBytes, base, band.bytes, order ? order.map((i) => descAxes[i]) : descAxes);
  }

  // A chunk zarrita decoded: its bytes, in its storage order, which must be
  // dense and of the array's chunk shape.
  function copyZarritaChunk(c, band, where) {
    const { data, shape: chunkShape, stride } = c.opened;
    const order = axes[0].virtual ? null : storageOrder(chunkShape, stride);
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if ((!order && !axes[0].virtual) || chunkShape.some((d, i) => d !== za.chunkShape[i])) {
      throw new ZarrCodecError("INVALID_INPUT", `${where()}: zarrita gave a chunk of shape ${JSON.stringify(chunkShape)} and strides ${JSON.stringify(stride)}, not a dense chunk of shape ${JSON.stringify(za.chunkShape)}`);
    }
    copyInPlace(module, bytes, placement(c, band, order && order.length ? order : null), band.at, where);
  }

  return function write(c, band, where) {
    if (c.kind === "fill") fillInPlace(module, fillElement(), placement(c, band, null), band.at, where);
    else if (c.kind === "decoded") decoder.place(c.opened, placement(c, band, plan.order), band.at, where);
    else copyZarritaChunk(c, band, where);
  };
}
