// A small static file server for the viewer and the browser tests: serves
// the repository root on 127.0.0.1 (an ephemeral port unless PORT is set).
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".wasm": "application/wasm",
};

/**
 * Serves `root` on 127.0.0.1. `headers` are added to every response (the
 * CSP test sets a Content-Security-Policy). Resolves to { server, url }.
 */
export function serve(root, { port = 0, headers = {} } = {}) {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      if (statSync(file).isDirectory()) file = join(file, "index.html");
      const size = statSync(file).size;
      const common = {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
        "accept-ranges": "bytes",
        ...headers,
      };
      // Byte ranges, as zarrita's FetchStore asks for sharded arrays' parts:
      // "bytes=a-b", "bytes=a-" and the suffix "bytes=-n".
      const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
      if (range && (range[1] || range[2])) {
        const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
        const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (start > end || start >= size) {
          res.writeHead(416, { "content-range": `bytes */${size}` }).end();
          return;
        }
        res.writeHead(206, { ...common, "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${size}` });
        createReadStream(file, { start, end }).pipe(res);
        return;
      }
      res.writeHead(200, { ...common, "content-length": size });
      createReadStream(file).pipe(res);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      resolve({ server, url: `http://127.0.0.1:${server.address().port}` });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const { url } = await serve(root, { port: Number(process.env.PORT ?? 8080) });
  console.log(`serving ${root} at ${url}`);
  console.log(`viewer: ${url}/examples/viewer/   (decode in a worker: ${url}/examples/viewer/?decode=worker)`);
}
