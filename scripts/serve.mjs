// A small static file server for the viewer and the browser tests: serves
// a directory (the repository root unless one is named) on 127.0.0.1, on
// an ephemeral port unless PORT is set.
//
//   node scripts/serve.mjs [directory]
//
// Everything is served with CORS headers, so that a page on another origin
// (a user's own app on its dev server, the viewer served from the
// repository on another port) can read a store in it: GET and HEAD, the
// byte ranges zarrita's FetchStore asks for, and the preflight a browser
// sends first where a request is not "simple" (a suffix range "bytes=-n").
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

// Any origin may read what is served; the headers zarrita reads of a range
// response are exposed to it.
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "content-length, content-range, accept-ranges",
};

// A preflight (OPTIONS with Access-Control-Request-Method): allowed for
// reads, with the headers asked for (Range, and whatever a store adds).
function preflight(req, res) {
  res.writeHead(204, {
    ...CORS,
    "access-control-allow-methods": "GET, HEAD, OPTIONS",
    "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "range",
    "access-control-max-age": "600",
    // Chromium's Private Network Access: a page from a public origin asks
    // before it reads this loopback server.
    ...(req.headers["access-control-request-private-network"] === "true" ? { "access-control-allow-private-network": "true" } : {}),
  }).end();
}

/**
 * Serves `root` on 127.0.0.1, with CORS headers (`cors: false` leaves them
 * out). `headers` are added to every response (the CSP test sets a
 * Content-Security-Policy). Resolves to { server, url }; rejects with
 * listen's error (EADDRINUSE where `port` is taken).
 */
export function serve(root, { port = 0, headers: extra = {}, cors = true } = {}) {
  const base = resolve(root);
  const headers = cors ? { ...CORS, ...extra } : extra;
  const server = createServer((req, res) => {
    if (cors && req.method === "OPTIONS") {
      preflight(req, res);
      return;
    }
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403, headers).end();
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
          res.writeHead(416, { ...headers, "content-range": `bytes */${size}` }).end();
          return;
        }
        res.writeHead(206, { ...common, "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${size}` });
        createReadStream(file, { start, end }).pipe(res);
        return;
      }
      res.writeHead(200, { ...common, "content-length": size });
      createReadStream(file).pipe(res);
    } catch {
      // With `headers` too: a store's missing key must read as missing
      // across origins (CORS), not as a failed fetch.
      res.writeHead(404, { ...headers, "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve({ server, url: `http://127.0.0.1:${server.address().port}` });
    });
  });
}

// PORT as a person sets it: unset or empty means any free port.
function portFromEnv(value) {
  if (value === undefined || value === "") return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new Error(`PORT must be a port number (0..65535), got ${JSON.stringify(value)}`);
  return port;
}

// One line, no stack: what went wrong and what to do.
function listenFailure(error, port) {
  if (error.code === "EADDRINUSE") {
    return `port ${port} on 127.0.0.1 is in use: set PORT to a free port, or leave PORT unset for any free one`;
  }
  if (error.code === "EACCES") return `no permission to listen on port ${port}: choose a PORT above 1023, or leave PORT unset`;
  return `cannot listen on 127.0.0.1:${port}: ${error.message}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const repository = fileURLToPath(new URL("..", import.meta.url));
  const named = process.argv[2];
  const root = named ? resolve(named) : repository;
  try {
    if (!statSync(root).isDirectory()) throw new Error(`${root} is not a directory`);
  } catch (error) {
    console.error(`serve: ${error.code === "ENOENT" ? `no directory ${root}` : error.message}`);
    process.exit(1);
  }
  let port;
  let url;
  try {
    port = portFromEnv(process.env.PORT);
    ({ url } = await serve(root, { port }));
  } catch (error) {
    console.error(`serve: ${error.code ? listenFailure(error, port) : error.message}`);
    process.exit(1);
  }
  console.log(`serving ${root} at ${url}`);
  console.log("with CORS headers: a page on any origin (your app's dev server) can read a store from it");
  if (named) console.log(`a store in it opens in the viewer (npm run viewer) as ?store=${url}/<path to the store>`);
  else {
    console.log(`viewer: ${url}/examples/viewer/   (decode in a worker: ${url}/examples/viewer/?decode=worker)`);
    console.log(`tile viewer: ${url}/examples/tile-viewer/   (a multiscale image in tiles on one read scheduler)`);
  }
}
