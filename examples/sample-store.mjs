// The sample data of the demo and the viewer: a synthetic 12-bit camera image
// (uint16 holding values 0..4095) and a bool mask of its bright ring, both
// stored with `packbits` in a Zarr v3 store, written by zarrita through the
// package's own encode. Deterministic, so tests can recompute every value.
import * as zarr from "zarrita";

export const SHAPE = [512, 512];
export const CHUNKS = [128, 128];

export const ARRAYS = {
  image: { dtype: "uint16", codecs: [{ name: "packbits", configuration: { last_bit: 11 } }], fillValue: 0 },
  mask: { dtype: "bool", codecs: [{ name: "packbits", configuration: {} }], fillValue: false },
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

/**
 * Writes both arrays into `store` (any zarrita store with set) under the
 * root group, with `registry` already holding the wasm codecs.
 */
export async function writeSampleStore(store) {
  const image = makeImage();
  const mask = makeMask(image);
  const root = await zarr.create(zarr.root(store), { attributes: { description: "zarr-codecs-wasm sample: 12-bit image and mask, packbits" } });
  for (const [name, { dtype, codecs, fillValue }] of Object.entries(ARRAYS)) {
    const arr = await zarr.create(root.resolve(name), { shape: SHAPE, chunkShape: CHUNKS, dtype, codecs, fillValue });
    const data = name === "image" ? image : new zarr.BoolArray(Array.from(mask, Boolean));
    await zarr.set(arr, null, { data, shape: SHAPE, stride: [SHAPE[1], 1] });
  }
  return { image, mask };
}
