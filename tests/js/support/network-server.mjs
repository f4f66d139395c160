// A store served over real HTTP on 127.0.0.1, shaped like the networks
// viewers read over: a delay per request (the round trip), a cap on the
// requests served at once (a browser's six connections per host, or a
// busy server), a link of so many bytes a second shared by every answer
// being sent (a user's downlink), with or without `Range` (python3 -m
// http.server answers a range with the whole file), and faults on demand
// (a 503 or a dropped connection for the next n requests of a path).
// A request whose client went away (an aborted fetch) while it waited for
// its turn or its round trip is never served, as a browser drops an
// aborted fetch still queued; an answer whose client went away stops
// being sent. Every request is logged, so tests and the network
// benchmarks count requests and bytes exactly as the server saw them.
// Files are served from memory.
//
//   const server = await startNetworkServer(files, { latencyMs: 25, maxConcurrent: 6, rateBytesPerSec: 6.25e6 });
//   ... new zarr.FetchStore(`${server.url}/image.zarr`) ...
//   server.requests();   // [{ method, path, range, status, bytes, startMs, turnMs, firstByteMs, endMs, dropped, aborted }]
//   server.totals();     // { requests, bytes, dropped, aborted }
//   await server.close();
//
// Node's fetch (undici's global Agent) opens as many connections to one
// origin as there are requests in flight (its `connections` is unlimited)
// and sends one request per connection at a time, so the server's cap is
// the only one a Node client meets; in a browser, its own per-host limit
// applies first.
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
  if (how.shift !== undefined) {
    // The length asked for, from another place (a server or cache that
    // answers a neighbouring range), within the file.
    const start = Math.min(Math.max(0, range.start + how.shift), size - (range.end - range.start));
    return { start, end: start + (range.end - range.start) };
  }
  if (range.end - range.start < (how.atLeast ?? 0)) return range;
  const end = Math.max(range.start + 1, Math.min(size, range.end + how.extra));
  return { start: range.start, end };
}

// Bytes a link sends of one answer in its turn. Small, so that a short
// answer (a shard's index) sharing the link with long ones waits behind
// few bytes, as packets of concurrent answers interleave on a real link:
// behind 5 others, 5 slices, 3 ms at 6.25 MB/s (13 ms with 16 KiB slices).
const SLICE = 4 << 10;

/**
 * One link of `rate()` bytes a second shared by every answer being sent:
 * the answers take turns a slice (4 KiB, or what is left) at a time, so n
 * answers at once each get about a 1/n share. A slice is written when the
 * link would have finished sending it (the link's clock runs ahead of the
 * answers' writes, never behind), so the client sees bytes arrive over
 * time; timers wake the link, and a late timer is made up at once, which
 * keeps the rate right on average. An idle link banks no time.
 * @param {() => number} rate bytes a second (Infinity: no link)
 */
function createLink(rate) {
  /** @type {{part: Uint8Array, sent: number, write: (bytes: Uint8Array) => void, done: () => void}[]} answers being sent, in turn */
  const senders = [];
  let clock = 0; // when the link has sent every byte it wrote so far
  let turn = 0;
  let timer;
  const pump = () => {
    timer = undefined;
    const now = performance.now();
    while (senders.length > 0) {
      turn %= senders.length;
      const s = senders[turn];
      const n = Math.min(SLICE, s.part.length - s.sent);
      const end = clock + (n * 1000) / rate();
      if (end > now) {
        timer = setTimeout(pump, end - now);
        return;
      }
      clock = end;
      s.write(s.part.subarray(s.sent, s.sent + n));
      s.sent += n;
      if (s.sent >= s.part.length) {
        senders.splice(turn, 1);
        s.done();
      } else {
        turn++;
      }
    }
  };
  return {
    /**
     * Sends `part` over the link through `write`: `finished` resolves with
     * the bytes written once the last is, or once stop() is called (the
     * client went away: nothing more is written).
     */
    send(part, write) {
      if (senders.length === 0) clock = Math.max(clock, performance.now());
      let done;
      const finished = new Promise((resolve) => (done = resolve));
      const sender = { part, sent: 0, write, done: () => done(sender.sent) };
      senders.push(sender);
      if (timer === undefined) pump();
      const stop = () => {
        const at = senders.indexOf(sender);
        if (at < 0) return;
        senders.splice(at, 1);
        if (at < turn) turn--;
        done(sender.sent);
      };
      return { finished, stop };
    },
    close() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * @param {Map<string, Uint8Array>} files  "/image.zarr/zarr.json" -> bytes
 * @param {{
 *   latencyMs?: number,      // added before each response is sent
 *   maxConcurrent?: number,  // requests served at once; the rest wait in order
 *   rateBytesPerSec?: number, // one link shared by every answer being sent (Infinity: none)
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
 *                            // of at least m bytes (0); {shift: n}, the
 *                            // length asked for from n bytes further on (a 206
 *                            // whose Content-Range says so)
 * }} [options]
 */
export async function startNetworkServer(files, options = {}) {
  const settings = { latencyMs: 0, maxConcurrent: Infinity, rateBytesPerSec: Infinity, ranges: true, suffixRanges: true, cors: true, rangeAnswer: "exact", ...options };
  // Times on performance.now()'s clock, so a benchmark in this process can
  // lay each request on its reads' timeline (the round trips in a row):
  // startMs when the request arrived; turnMs when it got its turn under
  // maxConcurrent (its round trip starts; undefined if it was dropped
  // before); firstByteMs when its answer's
  // first byte (or its headers, for an answer without a body) was
  // written; endMs when its answer was sent, or when it was dropped or
  // aborted. bytes: body bytes actually written. dropped: its client went
  // away before it was answered (never served: status 0, no byte);
  // aborted: its client went away while its answer was being sent.
  /** @type {{method: string, path: string, range?: string, status: number, bytes: number, startMs: number, turnMs?: number, firstByteMs?: number, endMs: number, dropped: boolean, aborted: boolean}[]} */
  let log = [];
  /** path -> faults still to serve: "503", "429", "reset" */
  const faults = new Map();
  /** path -> the answers held until release(path) */
  const stalled = new Map();
  let serving = 0;
  const waiting = [];
  let inFlightPeak = 0;
  const link = createLink(() => settings.rateBytesPerSec);

  // A turn under maxConcurrent; `gone` (the client went away) ends the wait
  // with false, and the turn is not taken.
  const take = (gone) =>
    new Promise((resolve) => {
      if (serving < settings.maxConcurrent) {
        serving++;
        resolve(true);
        return;
      }
      const wake = () => resolve(true);
      waiting.push(wake);
      gone.then(() => {
        const at = waiting.indexOf(wake);
        if (at >= 0) {
          waiting.splice(at, 1);
          resolve(false);
        }
      });
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
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const entry = { method: req.method ?? "GET", path, range: req.headers.range, status: 0, bytes: 0, startMs, turnMs: undefined, firstByteMs: undefined, endMs: startMs, dropped: false, aborted: false };
    // The client went away (its fetch aborted: undici closes the
    // connection of a request it has sent) before the answer was all sent.
    let clientGone = false;
    const gone = new Promise((resolve) =>
      res.once("close", () => {
        if (res.writableFinished) return;
        clientGone = true;
        resolve(undefined);
      }),
    );
    const drop = () => {
      entry.dropped = true;
      entry.endMs = performance.now();
      log.push(entry);
    };
    if (!(await take(gone))) {
      drop();
      return;
    }
    entry.turnMs = performance.now();
    inFlightPeak = Math.max(inFlightPeak, serving);
    try {
      if (settings.latencyMs > 0) {
        let timer;
        await Promise.race([new Promise((r) => (timer = setTimeout(r, settings.latencyMs))), gone]);
        clearTimeout(timer);
      }
      if (clientGone) {
        drop();
        return;
      }
      log.push(entry);
      // Sent: when the link wrote its last byte, or when Node flushed the
      // answer (the client may have all of it a little before "finish").
      let sentAllMs;
      res.once("finish", () => (entry.endMs = sentAllMs ?? performance.now()));
      // A stalled path answers once released (a body that never comes).
      if (stalled.has(path)) {
        await new Promise((resolve) => stalled.get(path).push(resolve));
        if (clientGone) {
          // Its client went away while it was held: nothing was sent.
          entry.aborted = true;
          entry.endMs = performance.now();
          return;
        }
      }
      const pending = faults.get(path);
      if (pending?.length) {
        const fault = pending.shift();
        if (fault === "reset") {
          entry.status = -1;
          entry.endMs = performance.now();
          req.socket.destroy();
          return;
        }
        if (fault === "cut") {
          // Headers for the whole answer, half its body, then the
          // connection closed: a body cut mid-way.
          const body = files.get(path) ?? new Uint8Array(0);
          const range = parseRange(req.headers.range, body.length);
          const part = range && !range.unsatisfiable ? body.subarray(range.start, range.end) : body;
          entry.status = range ? 206 : 200;
          entry.firstByteMs = performance.now();
          res.writeHead(entry.status, { ...cors, "content-type": "application/octet-stream", "content-length": String(part.length), ...(range ? { "content-range": `bytes ${range.start}-${range.end - 1}/${body.length}` } : {}) });
          const half = part.subarray(0, part.length >> 1);
          entry.bytes = half.length;
          res.write(half, () => setTimeout(() => req.socket.destroy(), 5));
          entry.endMs = performance.now();
          await gone;
          return;
        }
        entry.status = Number(fault);
        entry.firstByteMs = performance.now();
        res.writeHead(entry.status, { ...cors, "content-type": "text/plain", ...(fault === "429" ? { "retry-after": "0" } : {}) });
        res.end(`fault ${fault}`);
        return;
      }
      const body = files.get(path);
      if (!body || (req.method !== "GET" && req.method !== "HEAD")) {
        entry.status = body ? 405 : 404;
        entry.firstByteMs = performance.now();
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
        entry.firstByteMs = performance.now();
        res.writeHead(416, { ...cors, ...acceptRanges, "content-range": `bytes */${body.length}` }).end();
        return;
      }
      const part = range ? body.subarray(range.start, range.end) : body;
      entry.status = range ? 206 : 200;
      res.writeHead(entry.status, {
        ...cors,
        ...acceptRanges,
        "content-type": "application/octet-stream",
        "content-length": String(part.length),
        ...(range ? { "content-range": `bytes ${range.start}-${range.end - 1}/${body.length}` } : {}),
      });
      if (req.method === "HEAD" || part.length === 0) {
        entry.firstByteMs = performance.now();
        res.end();
        return;
      }
      if (!Number.isFinite(settings.rateBytesPerSec)) {
        entry.firstByteMs = performance.now();
        entry.bytes = part.length;
        res.end(part);
        return;
      }
      // Over the shared link, a slice at a time; the turn is held until the
      // last byte is written (the connection is busy until then).
      const write = (bytes) => {
        entry.firstByteMs ??= performance.now();
        entry.bytes += bytes.length;
        if (entry.bytes === part.length) sentAllMs = performance.now();
        res.write(bytes);
      };
      const sending = link.send(part, write);
      gone.then(sending.stop);
      await sending.finished;
      if (clientGone) {
        entry.aborted = true;
        entry.endMs = performance.now();
        return;
      }
      res.end();
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
    /** Every request since the start or the last reset(), dropped ones too (flagged). */
    requests: () => log.slice(),
    /**
     * Since the start or the last reset(): requests served (dropped ones
     * not counted), body bytes actually sent, requests dropped before
     * they were served, answers aborted while being sent.
     */
    totals: () => ({
      requests: log.filter((e) => !e.dropped).length,
      bytes: log.reduce((n, e) => n + e.bytes, 0),
      dropped: log.filter((e) => e.dropped).length,
      aborted: log.filter((e) => e.aborted).length,
    }),
    /** The most requests served at once (a check of the cap). */
    inFlightPeak: () => inFlightPeak,
    /** Requests at the server now: being served (in their round trip or answer) or waiting for a turn. */
    busy: () => serving + waiting.length,
    reset() {
      log = [];
      inFlightPeak = 0;
    },
    /** Changes latencyMs, maxConcurrent, rateBytesPerSec, ranges or suffixRanges from the next request on (a rate at once). */
    configure(changes) {
      Object.assign(settings, changes);
    },
    /**
     * The next requests of `path` fail, one fault each: "503", "429", "500",
     * "reset" (the connection closed before an answer) or "cut" (headers for
     * the whole answer, half its body, then the connection closed).
     */
    fail(path, ...list) {
      faults.set(path, [...(faults.get(path) ?? []), ...list]);
    },
    /** Forgets the faults still to serve for `path`. */
    clearFaults(path) {
      faults.delete(path);
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
        link.close();
        server.closeAllConnections?.();
        server.close(() => resolve(undefined));
      }),
  };
}
