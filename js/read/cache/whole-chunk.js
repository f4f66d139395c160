// A chunk decoded whole by read's own decoder (chunk-decoder.js), for the
// chunk cache: the placement machinery read uses for bands, with a band
// that is the whole chunk in C order (its storage order undone, as a band
// of the output would have it), copied out of wasm memory into bytes of
// its own.
import { cOrderStrides } from "../../codecs/chunk.js";
import { wasm } from "../../wasm/load.js";
import { allocateBand, describe, freeBand } from "../place/wasm-placement.js";

const product = (values) => values.reduce((a, b) => a * b, 1);

/**
 * The description of a whole chunk placed into a C-order band of its own:
 * per array axis [extent, from 0, count extent, step 1, C-order stride],
 * in storage order (`order`: stored axis j is array axis order[j]). A 0-d
 * chunk is one element along one axis no chunk key shows (read.js's
 * virtual axis).
 */
export function wholeAxes(chunkShape, elementBytes, order) {
  const shape = chunkShape.length === 0 ? [1] : chunkShape;
  const strides = cOrderStrides(shape);
  const axes = shape.map((extent, i) => ({ extent, from: 0, count: extent, step: 1, stride: strides[i] * elementBytes }));
  return order && chunkShape.length > 0 ? order.map((i) => axes[i]) : axes;
}

// The opened chunk placed into a band of the whole chunk, copied out.
// No await here: the realm's instance is not replaced (wasm/recycle.js)
// while the band is in its memory.
function placeWhole(plan, opened, where) {
  const { decoder, elementBytes } = plan;
  const shape = plan.za.chunkShape;
  const total = product(shape) * elementBytes;
  const module = wasm();
  const at = allocateBand(module, total);
  try {
    decoder.place(opened, describe(module, elementBytes, 0, total, wholeAxes(shape, elementBytes, plan.order)), at, where);
    return { data: module.HEAPU8.slice(at, at + total), shape: shape.slice(), stride: cOrderStrides(shape) };
  } finally {
    freeBand(module, at);
  }
}

/**
 * @param {object} plan  read's plan of the array (plan.js): its decoder, element bytes, order
 * @param {Uint8Array} bytes  the chunk as stored
 * @param {() => string} where  names the chunk in errors
 * @returns {Promise<{data: Uint8Array, shape: number[], stride: number[]}>}
 */
export async function decodeWhole(plan, bytes, where) {
  const { decoder } = plan;
  const opened = await decoder.open(bytes);
  try {
    return placeWhole(plan, opened, where);
  } catch (error) {
    // A frame only the compressor register() replaced reads (snappy
    // inside blosc): decoded again by it, then placed (chunk-decoder.js).
    if (!decoder.reopen || error?.code !== "UNSUPPORTED_CODEC") throw error;
    return placeWhole(plan, await decoder.reopen(opened, error), where);
  }
}
