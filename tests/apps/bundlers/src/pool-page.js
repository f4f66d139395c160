// A read pool in a bundled page: the main entry (zero configuration),
// zarrita writing an array in memory (packbits, and big-endian bytes),
// then read() through a pool of module workers that the bundler found by
// `new URL("./read-worker.js", import.meta.url)` in the package. Returns
// the values as hex (plain output, and a shared one where the page is
// cross-origin isolated) for the test to check against its references,
// and the pool's stats (which path the chunks took).
import * as zarr from "zarrita";
import { createReadPool, read, register } from "zarr-codecs-wasm";

register(zarr.registry);

const hex = (data) =>
  Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), (b) => b.toString(16).padStart(2, "0")).join("");

window.run = async ({ shape, chunks, values, codecs }) => {
  const store = new Map();
  const arr = await zarr.create(zarr.root(store).resolve("a"), { shape, chunkShape: chunks, dtype: "uint16", codecs, fillValue: 0 });
  await zarr.set(arr, null, { data: Uint16Array.from(values), shape, stride: [shape[1], 1] });
  const pool = createReadPool({ workers: 2 });
  try {
    const plain = await read(arr, null, { pool });
    const shared = globalThis.crossOriginIsolated ? await read(arr, null, { pool, useSharedArrayBuffer: true }) : undefined;
    const steps = await read(arr, [zarr.slice(1, null, 3), zarr.slice(2, null, 2)], { pool });
    return {
      isolated: Boolean(globalThis.crossOriginIsolated),
      plain: hex(plain.data),
      shared: shared && { hex: hex(shared.data), isShared: shared.data.buffer instanceof SharedArrayBuffer },
      steps: hex(steps.data),
      stats: pool.stats(),
    };
  } finally {
    await pool.close();
  }
};
window.loaded = true;
