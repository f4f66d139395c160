// The sample data of the demo and the viewer, in one Zarr v3 store:
//   image        uint16 holding 12-bit values (a camera image), packbits
//   mask         bool, its bright ring, packbits
//   weights      int4 (low-bit model weights), packbits
//   activations  float8_e4m3 (an activation map), bytes
// zarrita writes image and mask itself; int4 and float8_e4m3 it does not
// know, so those go through withDataTypes: the metadata is written as the
// zarr-extensions pages define it, and zarr.set writes the presented values
// (int8, float32) back to the stored types. Deterministic, so tests can
// recompute every value.
import * as zarr from "zarrita";
import { withDataTypes } from "../js/index.js";

export const SHAPE = [512, 512];
export const CHUNKS = [128, 128];

export const ARRAYS = {
  image: { dtype: "uint16", codecs: [{ name: "packbits", configuration: { last_bit: 11 } }], fillValue: 0 },
  mask: { dtype: "bool", codecs: [{ name: "packbits", configuration: {} }], fillValue: false },
  weights: { dtype: "int4", codecs: [{ name: "packbits", configuration: {} }], fillValue: 0 },
  activations: { dtype: "float8_e4m3", codecs: [{ name: "bytes", configuration: {} }], fillValue: 0 },
};

/** The 12-bit image: rings around an off-centre spot, plus fine noise. */
export function makeImage([h, w] = SHAPE) {
  const image = new Uint16Array(h * w);
  let x = 12345;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const dy = r - h * 0.45;
      const dx = c - w * 0.55;
      const d = Math.sqrt(dx * dx + dy * dy);
      x = (x * 1103515245 + 12345) >>> 0;
      const noise = (x >>> 16) % 97;
      const v = 1800 + 1500 * Math.cos(d / 18) * Math.exp(-d / 400) + (c / w) * 600 + noise;
      image[r * w + c] = Math.max(0, Math.min(4095, Math.round(v)));
    }
  }
  return image;
}

/** The mask: pixels brighter than 2900. */
export function makeMask(image) {
  return Uint8Array.from(image, (v) => (v > 2900 ? 1 : 0));
}

/** int4 weights in [-8, 7]: a smooth pattern, as quantised weights look. */
export function makeWeights([h, w] = SHAPE) {
  const out = new Int8Array(h * w);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      out[r * w + c] = Math.max(-8, Math.min(7, Math.floor(8 * Math.sin(r / 23) * Math.cos(c / 31))));
    }
  }
  return out;
}

/**
 * float8_e4m3 from its definition (zarr-extensions): 1 sign, 4 exponent
 * and 3 mantissa bits, bias 7, exponent 0 subnormal, exponent 15 infinity
 * and NaN. Codes with exponent 15 are not used here.
 */
export function float8E4m3Value(code) {
  const sign = code & 0x80 ? -1 : 1;
  const e = (code >> 3) & 15;
  const m = code & 7;
  return sign * (e === 0 ? (m / 8) * 2 ** -6 : (1 + m / 8) * 2 ** (e - 7));
}

/**
 * float8_e4m3 activations: every finite magnitude from 0 to 240 (the
 * format's largest), both signs, as a field of bumps. Values are exactly
 * representable, so writing them through withDataTypes narrows exactly.
 */
export function makeActivations([h, w] = SHAPE) {
  const out = new Float32Array(h * w);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const t = 0.5 + 0.5 * Math.sin(r / 19) * Math.sin(c / 27);
      const magnitude = Math.min(119, Math.floor(t * 120)); // codes 0..119: exponent 0..14
      const sign = Math.cos((r + c) / 40) < -0.6 ? 0x80 : 0;
      out[r * w + c] = float8E4m3Value(sign | magnitude);
    }
  }
  return out;
}

const json = (value) => new TextEncoder().encode(JSON.stringify(value, null, 2));

/**
 * Writes the four arrays into `store` (any zarrita store with set) under
 * the root group, with zarr.registry already holding the wasm codecs
 * (register). Returns the values written.
 */
export async function writeSampleStore(store) {
  const image = makeImage();
  const mask = makeMask(image);
  const weights = makeWeights();
  const activations = makeActivations();
  const root = await zarr.create(zarr.root(store), {
    attributes: { description: "zarr-codecs-wasm sample: a 12-bit image, its mask, int4 weights, float8_e4m3 activations" },
  });
  for (const name of ["image", "mask"]) {
    const { dtype, codecs, fillValue } = ARRAYS[name];
    const arr = await zarr.create(root.resolve(name), { shape: SHAPE, chunkShape: CHUNKS, dtype, codecs, fillValue });
    const data = name === "image" ? image : new zarr.BoolArray(Array.from(mask, Boolean));
    await zarr.set(arr, null, { data, shape: SHAPE, stride: [SHAPE[1], 1] });
  }
  const typed = withDataTypes(store);
  for (const [name, data] of [["weights", weights], ["activations", activations]]) {
    const { dtype, codecs, fillValue } = ARRAYS[name];
    await store.set(`/${name}/zarr.json`, json({
      zarr_format: 3,
      node_type: "array",
      shape: SHAPE,
      data_type: dtype,
      chunk_grid: { name: "regular", configuration: { chunk_shape: CHUNKS } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: fillValue,
      codecs,
      attributes: {},
      dimension_names: ["y", "x"],
    }));
    const arr = await zarr.open.v3(zarr.root(typed).resolve(name), { kind: "array" });
    await zarr.set(arr, null, { data, shape: SHAPE, stride: [SHAPE[1], 1] });
  }
  return { image, mask, weights, activations };
}
