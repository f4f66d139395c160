// A small Zarr v3 store of 2-d uint16 images as viewers read them: 12-bit
// packbits and big-endian bytes, each also with gzip after, 64 x 64 chunks
// with partial edge chunks. The chunks come from the spec-literal
// references (reference.js) and node:zlib, never from the package.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { packBitsEncodeReference, swapGroups } from "./reference.js";

export const IMAGE_SHAPE = [200, 150];
export const CHUNK_SHAPE = [64, 64];

const GZIP = { name: "gzip", configuration: { level: 1 } };
export const IMAGES = {
  packbits12: { bits: 12, codecs: [{ name: "packbits", configuration: { last_bit: 11 } }] },
  "packbits12-gzip": { bits: 12, codecs: [{ name: "packbits", configuration: { last_bit: 11 } }, GZIP] },
  "big-endian": { bits: 16, codecs: [{ name: "bytes", configuration: { endian: "big" } }] },
  "big-endian-gzip": { bits: 16, codecs: [{ name: "bytes", configuration: { endian: "big" } }, GZIP] },
};

/** The image's pixel at (y, x): a pattern using every bit of `bits`. */
export function pixel(bits, y, x) {
  return (Math.imul(y * 151 + x, 2654435761) >>> 7) & ((1 << bits) - 1);
}

function encodeChunk({ bits, codecs }, cy, cx) {
  const [h, w] = CHUNK_SHAPE;
  const values = new Uint16Array(h * w); // the edge padded with the fill, 0
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [iy, ix] = [cy * h + y, cx * w + x];
      if (iy < IMAGE_SHAPE[0] && ix < IMAGE_SHAPE[1]) values[y * w + x] = pixel(bits, iy, ix);
    }
  }
  const little = new Uint8Array(values.buffer);
  let bytes = codecs[0].name === "packbits"
    ? packBitsEncodeReference({ containerBytes: 2, firstBit: 0, bits, isBool: false }, little)
    : swapGroups(little, 2);
  if (codecs.length > 1) bytes = gzipSync(bytes, { level: 1 });
  return bytes;
}

/** Writes the store's group and arrays under `dir`. */
export function writeImageStore(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "zarr.json"), JSON.stringify({ zarr_format: 3, node_type: "group", attributes: {} }));
  for (const [name, image] of Object.entries(IMAGES)) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, "zarr.json"), JSON.stringify({
      zarr_format: 3,
      node_type: "array",
      shape: IMAGE_SHAPE,
      data_type: "uint16",
      chunk_grid: { name: "regular", configuration: { chunk_shape: CHUNK_SHAPE } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: image.codecs,
      dimension_names: ["y", "x"],
    }));
    for (let cy = 0; cy * CHUNK_SHAPE[0] < IMAGE_SHAPE[0]; cy++) {
      for (let cx = 0; cx * CHUNK_SHAPE[1] < IMAGE_SHAPE[1]; cx++) {
        mkdirSync(join(dir, name, "c", String(cy)), { recursive: true });
        writeFileSync(join(dir, name, "c", String(cy), String(cx)), encodeChunk(image, cy, cx));
      }
    }
  }
}
