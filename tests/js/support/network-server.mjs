// A store served over real HTTP on 127.0.0.1, shaped like the networks
// viewers read over: a delay per request (the round trip), a cap on the
// requests served at once (a browser's six connections per host, or a
// busy server), with or without `Range` (python3 -m http.server answers a
// range with the whole file), and faults on demand (a 503 or a dropped
// connection for the next n requests of a path). Every request is logged,
// so tests and the network benchmark count requests and bytes exactly as
// the server saw them. Files are served from memory.
//
//   const server = await startNetworkServer(files, { latencyMs: 25, maxConcurrent: 6 });
//   ... new zarr.FetchStore(`${server.url}/image.zarr`) ...
//   server.requests();   // [{ method, path, range, status, bytes, startMs, endMs }]
//   await server.close();
import { createServer } from "node:http";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "content-length, content-range, accept-ranges",
};

/**
 * A byte range header as the server understands it, or undefined where
 * there is none or it is not one range: { start, end } (end exclusive),
 * clamped to the file's size, or { unsatisfiable: true }.
 * @param {string | undefined} header
 * @param {number} size
 */
function parseRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return { unsatisfiable: true };
    return { start: Math.max(0, size - n), end: size };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size : Math.min(size, Number(m[2]) + 1);
  if (start >= size || end <= start) return { unsatisfiable: true };
  return { start, end };
}

// The part a server that answers ranges its own way sends for `range`.
function answered(range, size, how) {
  if (!range || range.unsatisfiable || how === "exact") return range;
  if (how === "to-end") return { start: range.start, end: size };
  if (range.end - range.start < (how.atLeast ?? 0)) return range;
  const end = Math.max(range.start + 1, Math.min(size, range.end + how.extra));
  return { start: range.start, end };
}

/**
 * @param {Map<string, Uint8Array>} files  "/image.zarr/zarr.json" -> bytes
 * @param {{
 *   latencyMs?: number,      // added before each response is sent
 *   maxConcurrent?: number,  // requests served at once; the rest wait in order
 *   ranges?: boolean,        // false: Range is ignored, the whole file is sent (200)
 *   suffixRanges?: boolean | "refuse",  // false: "bytes=-n" is ignored the same
 *                            // way; "refuse": answered 416 (a server that
 *                            // takes only the forms bytes=a-b and bytes=a-)
 *   cors?: boolean,
 *   rangeAnswer?: "exact" | "to-end" | {extra: number},
 *                            // how a range bytes=a-b is answered (a 206 whose
 *                            // Content-Range says what was sent): "exact";
 *                            // "to-end", a..EOF (a server that honours only the
 *                            // start); {extra: n, atLeast?: m}, n bytes more than
 *                            // asked (n < 0: fewer), within the file, for ranges
 *                            // of at least m bytes (0)
 * }} [options]
 */
export async function startNetworkServer(files, options = {}) {
  const settings = { latencyMs: 0, maxConcurrent: Infinity, ranges: true, suffixRanges: true, cors: true, rangeAnswer: "exact", ...options };
  // startMs: when the request arrived (before it waited for a turn under
  // maxConcurrent and for the latency); endMs: when its answer was sent.
  // Both on performance.now()'s clock, so a benchmark in this process can
  // lay each request on its reads' timeline (the round trips in a row).
  /** @type {{method: string, path: string, range?: string, status: number, bytes: number, startMs: number, endMs: number}[]} */
  let log = [];
  /** path -> faults still to serve: "503", "429", "reset" */
  const faults = new Map();
  /** path -> the answers held until release(path) */
  const stalled = new Map();
  let serving = 0;
  const waiting = [];
  let inFlightPeak = 0;

  const take = () =>
    new Promise((resolve) => {
      if (serving < settings.maxConcurrent) {
        serving++;
        resolve();
      } else {
        waiting.push(resolve);
      }
    });
  const give = () => {
    const next = waiting.shift();
    if (next) next();
    else serving--;
  };

  const server = createServer(async (req, res) => {
    const cors = settings.cors ? CORS : {};
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "GET, HEAD, OPTIONS",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "range",
        "access-control-max-age": "600",
      }).end();
      return;
    }
    const startMs = performance.now();
    await take();
    inFlightPeak = Math.max(inFlightPeak, serving);
    try {
      if (settings.latencyMs > 0) await new Promise((r) => setTimeout(r, settings.latencyMs));
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
      const entry = { method: req.method ?? "GET", path, range: req.headers.range, status: 0, bytes: 0, startMs, endMs: startMs };
      log.push(entry);
      res.once("finish", () => (entry.endMs = performance.now()));
      // A stalled path answers once released (a body that never comes).
      if (stalled.has(path)) await new Promise((resolve) => stalled.get(path).push(resolve));
      const pending = faults.get(path);
      if (pending?.length) {
        const fault = pending.shift();
        if (fault === "reset") {
          entry.status = -1;
          entry.endMs = performance.now();
          req.socket.destroy();
          return;
        }
        entry.status = Number(fault);
        res.writeHead(entry.status, { ...cors, "content-type": "text/plain", ...(fault === "429" ? { "retry-after": "0" } : {}) });
        res.end(`fault ${fault}`);
        return;
      }
      const body = files.get(path);
      if (!body || (req.method !== "GET" && req.method !== "HEAD")) {
        entry.status = body ? 405 : 404;
        res.writeHead(entry.status, { ...cors, "content-type": "text/plain" }).end(body ? "method not allowed" : "not found");
        return;
      }
      const suffix = /^bytes=-/.test(req.headers.range ?? "");
      const honour = settings.ranges && (settings.suffixRanges === true || !suffix);
      const refused = settings.ranges && suffix && settings.suffixRanges === "refuse";
      const range = refused ? { unsatisfiable: true } : honour ? answered(parseRange(req.headers.range, body.length), body.length, settings.rangeAnswer) : undefined;
      const acceptRanges = settings.ranges ? { "accept-ranges": "bytes" } : {};
      if (range?.unsatisfiable) {
        entry.status = 416;
        res.writeHead(416, { ...cors, ...acceptRanges, "content-range": `bytes */${body.length}` }).end();
        return;
      }
      const part = range ? body.subarray(range.start, range.end) : body;
      entry.status = range ? 206 : 200;
      entry.bytes = req.method === "HEAD" ? 0 : part.length;
      res.writeHead(entry.status, {
        ...cors,
        ...acceptRanges,
        "content-type": "application/octet-stream",
        "content-length": String(part.length),
        ...(range ? { "content-range": `bytes ${range.start}-${range.end - 1}/${body.length}` } : {}),
      });
      res.end(req.method === "HEAD" ? undefined : part);
    } finally {
      give();
    }
  });
  // Keep-alive connections are reused by fetch; close() ends them too.
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());

  return {
    url: `http://127.0.0.1:${port}`,
    /** Every request served since the start or the last reset(). */
    requests: () => log.slice(),
    /** Requests and body bytes sent since the start or the last reset(). */
    totals: () => ({ requests: log.length, bytes: log.reduce((n, e) => n + e.bytes, 0) }),
    /** The most requests served at once (a check of the cap). */
    inFlightPeak: () => inFlightPeak,
    reset() {
      log = [];
      inFlightPeak = 0;
    },
    /** Changes latencyMs, maxConcurrent, ranges or suffixRanges from the next request on. */
    configure(changes) {
      Object.assign(settings, changes);
    },
    /** The next requests of `path` fail, one fault each: "503", "429", "500" or "reset". */
    fail(path, ...list) {
      faults.set(path, [...(faults.get(path) ?? []), ...list]);
    },
    /** Requests of `path` arrive (and are logged) but are answered only at release(path). */
    stall(path) {
      if (!stalled.has(path)) stalled.set(path, []);
    },
    /** Answers the stalled requests of `path` (every path without one), and stalls it no more. */
    release(path) {
      for (const [p, waiting] of stalled) {
        if (path !== undefined && p !== path) continue;
        stalled.delete(p);
        waiting.forEach((resolve) => resolve());
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const waiting of stalled.values()) waiting.forEach((r) => r());
        stalled.clear();
        server.closeAllConnections?.();
        server.close(() => resolve(undefined));
      }),
  };
}
