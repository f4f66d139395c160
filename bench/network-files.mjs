// A folder's files in memory, keyed as the network server serves them
// ("/image.zarr/sharded/c/0/0"), for bench/network.mjs and
// bench/network-browser.mjs.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** @returns {Map<string, Uint8Array>} */
export function loadFolder(dir, prefix) {
  const files = new Map();
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(`${prefix}/${relative(dir, p)}`, new Uint8Array(readFileSync(p)));
    }
  };
  walk(dir);
  return files;
}
