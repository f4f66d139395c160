// Vite's production build of the page: node build.mjs <project> <out>, where
// <project> holds main.js, index.html and node_modules (the packed
// zarr-codecs-wasm and this app's npm packages).
import { join } from "node:path";
import { build } from "vite";

const [project, out] = process.argv.slice(2);
await build({
  root: project,
  configFile: false,
  logLevel: "warn",
  build: { outDir: out, emptyOutDir: true, rollupOptions: { input: join(project, "index.html") } },
});
