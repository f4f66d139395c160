// Vite's dev server for the app: node dev-server.mjs <project> <package>...,
// where <project> holds index.html, main.ts and node_modules, and
// <package> is the folder node_modules/zarr-codecs-wasm links to (outside
// the project, so Vite must be allowed to serve from it; more folders may
// follow). Run in a process
// of its own (Vite's checks of its options fail in Jest's module sandbox,
// whose RegExp is another realm's): prints { url } as one JSON line once
// listening, on a free 127.0.0.1 port, and serves until SIGTERM.
import { createServer } from "vite";

const [project, ...linked] = process.argv.slice(2);
const server = await createServer({
  root: project,
  configFile: false,
  logLevel: "error",
  clearScreen: false,
  server: { host: "127.0.0.1", port: 0, strictPort: true, fs: { allow: [project, ...linked] } },
});
await server.listen();
process.stdout.write(`${JSON.stringify({ url: server.resolvedUrls.local[0] })}\n`);
process.on("SIGTERM", () => server.close().then(() => process.exit(0)));
