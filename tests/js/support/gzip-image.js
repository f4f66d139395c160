// An in-memory Zarr v3 image whose chunks are little-endian bytes then
// gzip (node:zlib, never the package), so read decodes it through its wasm
// bands (the chain in wasm): the values come from a formula, for tests of
// read's memory (its budget, instance and worker recycling).
import { gzipSync } from "node:zlib";
import { memoryStore } from "./memory-store.js";

const TYPES = { uint8: Uint8Array, uint16: Uint16Array };

/** The value at flat index i (element y * width + x): a pattern using the type's bits. */
export function patternValue(i, bits) {
  return (Math.imul(i, 2654435761) >>> 9) & (2 ** bits - 1);
}

/**
 * The store's files and the expected values: `shape` and `chunkShape` 2-d,
 * `dataType` "uint8" or "uint16", `value(i, bits)` the element at flat
 * index i (patternValue unless given: one that compresses well is quicker
 * to write).
 */
export function gzipImage({ shape, chunkShape, dataType = "uint16", value = patternValue }) {
  const Type = TYPES[dataType];
  const bits = 8 * Type.BYTES_PER_ELEMENT;
  const [h, w] = shape;
  const [ch, cw] = chunkShape;
  const values = new Type(h * w);
  for (let i = 0; i < values.length; i++) values[i] = value(i, bits);
  const files = new Map();
  files.set("/image/zarr.json", {
    zarr_format: 3, node_type: "array", shape, data_type: dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: chunkShape } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }], attributes: {},
  });
  for (let cy = 0; cy * ch < h; cy++) {
    for (let cx = 0; cx * cw < w; cx++) {
      const chunk = new Type(ch * cw); // edges padded with the fill, 0
      for (let y = 0; y < ch && cy * ch + y < h; y++) {
        const from = (cy * ch + y) * w + cx * cw;
        chunk.set(values.subarray(from, from + Math.min(cw, w - cx * cw)), y * cw);
      }
      files.set(`/image/c/${cy}/${cx}`, gzipSync(new Uint8Array(chunk.buffer), { level: 1 }));
    }
  }
  return { store: memoryStore([...files]), values };
}

/** Whether two arrays hold the same values (no per-element expect: they are megabytes). */
export function sameValues(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
