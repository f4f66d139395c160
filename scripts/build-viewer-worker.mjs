// Bundles the viewer's worker (examples/viewer/decode-worker.js, with
// zarrita and the package) into examples/viewer/build/decode-worker.js:
// module workers cannot use the page's import map. Several browser test
// files build it at once while Chromium loads it, so the bundle is written
// beside its place and renamed into it (never read half-written).
import { build } from "esbuild";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const viewer = new URL("../examples/viewer/", import.meta.url);

export async function buildViewerWorker() {
  const outfile = fileURLToPath(new URL("build/decode-worker.js", viewer));
  const { outputFiles } = await build({
    entryPoints: [fileURLToPath(new URL("decode-worker.js", viewer))],
    outfile,
    bundle: true,
    format: "esm",
    platform: "browser",
    alias: { "zarr-codecs-wasm": fileURLToPath(new URL("../js/index.js", import.meta.url)) },
    minify: true,
    logLevel: "warning",
    write: false,
  });
  mkdirSync(dirname(outfile), { recursive: true });
  const partial = `${outfile}.${process.pid}.partial`;
  writeFileSync(partial, outputFiles[0].contents);
  renameSync(partial, outfile);
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`wrote ${await buildViewerWorker()}`);
}
