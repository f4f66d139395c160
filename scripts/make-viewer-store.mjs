// Writes examples/viewer/data.zarr: the sample store, encoded by the
// package's own codecs through zarrita.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { register } from "../js/index.js";
import { writeSampleStore } from "../examples/sample-store.mjs";

export const VIEWER_STORE = fileURLToPath(new URL("../examples/viewer/data.zarr", import.meta.url));

export async function makeViewerStore() {
  register(zarr.registry);
  rmSync(VIEWER_STORE, { recursive: true, force: true });
  await writeSampleStore(new FileSystemStore(VIEWER_STORE));
  return VIEWER_STORE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`wrote ${await makeViewerStore()}`);
}
