// The viv test app (tests/apps/viv) as the browser tests run it: one of
// its pages bundled with esbuild into a fresh temporary folder, with the
// bundle's metafile (which zarrita copies went in). "zarr-codecs-wasm" is
// this repository's main entry (the app does not depend on it: a file:
// dependency would put the clone's folder name in its lock).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./browser.js";

export const VIV_APP = join(ROOT, "tests/apps/viv");

/**
 * Bundles `entry` (a module of the app) and copies `page` (its HTML) into a
 * new folder named after `prefix`; the caller removes `out`.
 * @returns {{out: string, meta: {inputs: object}}}
 */
export function bundleVivPage(entry, page, prefix) {
  if (!existsSync(join(VIV_APP, "node_modules/@vivjs/loaders"))) {
    throw new Error("tests/apps/viv has no node_modules: run scripts/setup.sh");
  }
  const out = mkdtempSync(join(tmpdir(), `zarr-codecs-wasm-${prefix}-`));
  execFileSync(join(ROOT, "node_modules/.bin/esbuild"), [
    entry, "--bundle", "--format=esm", "--platform=browser", "--minify", "--log-level=error",
    `--outfile=${join(out, entry)}`, `--metafile=${join(out, "meta.json")}`,
    `--alias:zarr-codecs-wasm=${join(ROOT, "js/index.js")}`,
  ], { cwd: VIV_APP });
  copyFileSync(join(VIV_APP, page), join(out, page));
  return { out, meta: JSON.parse(readFileSync(join(out, "meta.json"), "utf8")) };
}
