// Vite's production build of one first-tile page, as a user's app builds
// it (no configuration file, Vite's defaults): node build.mjs
// <default|slim|zarrita> <project> <out>. <project> holds src/ (this
// folder's) and node_modules with the packed package and zarrita.
import { join } from "node:path";
import { build } from "vite";

const [entry, project, out] = process.argv.slice(2);
const src = join(project, "src");
await build({
  root: src,
  configFile: false,
  logLevel: "warn",
  build: { outDir: out, emptyOutDir: true, rollupOptions: { input: join(src, `${entry}.html`) } },
});
