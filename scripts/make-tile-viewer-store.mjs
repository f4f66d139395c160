// Writes examples/tile-viewer/data.zarr: the tile viewer's multiscale
// sample (examples/tile-viewer/pyramid-store.mjs), encoded by the
// package's own codecs. Written into a staging folder beside it, then
// renamed into place, so that a page reading the store meanwhile sees
// the old one or the new one (the same bytes: the sample is
// deterministic), never half of it.
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { register } from "../js/index.js";
import { writePyramidStore } from "../examples/tile-viewer/pyramid-store.mjs";

export const TILE_VIEWER_STORE = fileURLToPath(new URL("../examples/tile-viewer/data.zarr", import.meta.url));
const FOLDER = fileURLToPath(new URL("../examples/tile-viewer/", import.meta.url));

export async function makeTileViewerStore() {
  register(zarr.registry);
  const staging = mkdtempSync(join(FOLDER, "data.zarr-"));
  const old = `${staging}-old`;
  try {
    await writePyramidStore(new FileSystemStore(staging));
    try {
      renameSync(TILE_VIEWER_STORE, old);
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
    renameSync(staging, TILE_VIEWER_STORE);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return TILE_VIEWER_STORE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const written = await makeTileViewerStore();
  console.log(`wrote ${written} in ${Math.round(performance.now() - t0)} ms`);
}
