// Writes examples/viewer/data.zarr: the sample store, encoded by the
// package's own codecs through zarrita. Several browser test files write
// it at once while Chromium reads it, so it is written into a staging
// folder first and each file then renamed into place: a reader sees the
// old file or the new one (the same bytes: the sample is deterministic),
// never a missing or half-written one.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { register } from "../js/index.js";
import { writeSampleStore } from "../examples/sample-store.mjs";

export const VIEWER_STORE = fileURLToPath(new URL("../examples/viewer/data.zarr", import.meta.url));
// On the same file system as the store (rename), and git-ignored.
const STAGING = fileURLToPath(new URL("../examples/viewer/build/", import.meta.url));

function filesUnder(root, dir = root) {
  let out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    out = entry.isDirectory() ? out.concat(filesUnder(root, p)) : out.concat(relative(root, p));
  }
  return out;
}

export async function makeViewerStore() {
  register(zarr.registry);
  mkdirSync(STAGING, { recursive: true });
  const staging = mkdtempSync(join(STAGING, "data.zarr-"));
  try {
    await writeSampleStore(new FileSystemStore(staging));
    const fresh = new Set(filesUnder(staging));
    for (const file of fresh) {
      mkdirSync(dirname(join(VIEWER_STORE, file)), { recursive: true });
      renameSync(join(staging, file), join(VIEWER_STORE, file));
    }
    // Files of an older sample that this one no longer has.
    for (const file of filesUnder(VIEWER_STORE)) if (!fresh.has(file)) rmSync(join(VIEWER_STORE, file));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return VIEWER_STORE;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`wrote ${await makeViewerStore()}`);
}
