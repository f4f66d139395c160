// Builds the test page of one variant with one bundler, as a user's
// production build would: node build.mjs <vite|webpack> <default|asset>
// <project> <out>. <project> holds src/ (this folder's) and node_modules
// with the packed package installed; Vite and webpack are the repository's
// (from npm). Prints { html, files: [{ name, bytes, gzip }] } as JSON.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

const [bundler, variant, project, out] = process.argv.slice(2);
const src = join(project, "src");
const html = `${variant}.html`;

async function viteBuild() {
  const { build } = await import("vite");
  await build({
    root: src,
    configFile: false,
    logLevel: "warn",
    resolve: { alias: { "#wasm-url": join(src, "wasm-url.vite.js") } },
    // Vite's defaults otherwise, including its iife worker format.
    build: { outDir: out, emptyOutDir: true, rollupOptions: { input: join(src, html) } },
  });
}

async function webpackBuild() {
  const { default: webpack } = await import("webpack");
  const stats = await new Promise((resolve, reject) =>
    webpack(
      {
        mode: "production",
        context: project,
        entry: `./src/${variant}-page.js`,
        output: { path: out, filename: "[name].[contenthash:8].js", module: true, chunkFormat: "module", clean: true },
        // ES module output, so the module worker loads its chunks with
        // import() (a module worker has no importScripts).
        experiments: { outputModule: true },
        resolve: { alias: { "#wasm-url": join(src, "wasm-url.webpack.js") } },
        // The asset build imports the .wasm itself, which needs this rule;
        // the default build has none (the package's `new URL(...)` is
        // enough for webpack).
        module: { rules: variant === "asset" ? [{ test: /\.wasm$/, type: "asset/resource" }] : [] },
        devtool: false,
        performance: { hints: false },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  if (stats.hasErrors()) throw new Error(stats.toString("errors-only"));
  const main = Object.keys(stats.compilation.assets).find((name) => name.startsWith("main."));
  writeFileSync(join(out, html), readFileSync(join(src, html), "utf8").replace(`./${variant}-page.js`, `./${main}`));
}

await (bundler === "vite" ? viteBuild() : webpackBuild());

const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else {
      const bytes = readFileSync(path);
      files.push({ name: relative(out, path), bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    }
  }
})(out);
console.log(JSON.stringify({ html, files }));
