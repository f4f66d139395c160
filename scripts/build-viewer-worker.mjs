// Bundles the viewer's worker (examples/viewer/decode-worker.js, with
// zarrita and the package) into examples/viewer/build/decode-worker.js:
// module workers cannot use the page's import map.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const viewer = new URL("../examples/viewer/", import.meta.url);

export async function buildViewerWorker() {
  const outfile = fileURLToPath(new URL("build/decode-worker.js", viewer));
  await build({
    entryPoints: [fileURLToPath(new URL("decode-worker.js", viewer))],
    outfile,
    bundle: true,
    format: "esm",
    platform: "browser",
    alias: { "zarr-codecs-wasm": fileURLToPath(new URL("../js/index.js", import.meta.url)) },
    minify: true,
    logLevel: "warning",
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`wrote ${await buildViewerWorker()}`);
}
