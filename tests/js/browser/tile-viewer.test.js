// The tile viewer (examples/tile-viewer/) in Chromium, reading its
// multiscale sample from a loopback server shaped like a user's link: a
// 25 ms round trip, 6 requests served at once and one 6.25 MB/s (50 Mbit/s)
// link shared by every answer (tests/js/support/network-server.mjs). The
// page opens on level 0, the user flings the view (8 pans 40 ms apart, a
// flick of about 6 pixels a millisecond, each view stale before it is read),
// then pans and zooms out at once. Checked:
//   - values: every tile the page holds decoded, and the overview, against
//     the sample's formula (pyramid-store.mjs's pixel), and the canvas where
//     it shows them (gray v >> 8);
//   - no stale tile: no chunk of a read placed (onProgress), and no read
//     resolved, after its abort; each aborted read rejects with an AbortError;
//   - requests and bytes as Chromium's own network events count them
//     (playwright's request, requestfinished and requestfailed, and
//     request.sizes()), against the page's scheduler.stats() and the
//     server's log: each request the scheduler sent is one request
//     Chromium made, and nothing reached the server that Chromium did not
//     send, so the requests the scheduler dropped before sending (of tiles
//     aborted while they waited) reached neither; Chromium fails only
//     requests the scheduler aborted in flight; the scheduler's bytes are
//     the bodies Chromium received whole (less those of answers the page
//     had aborted as they completed), and the link carried at least those.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import * as zarr from "zarrita";
import { ready, register } from "../../../js/index.js";
import { LEVELS, pixel, TILE, writePyramidStore } from "../../../examples/tile-viewer/pyramid-store.mjs";
import { launchChromium, openPage, serveRepository } from "../support/browser.js";
import { memoryStore } from "../support/memory-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

jest.setTimeout(90000);

const STORE = "/pyramid.zarr";
const LINK = { latencyMs: 25, maxConcurrent: 6, rateBytesPerSec: 6.25e6 };
const START = [300, 300];
const FLING = Array.from({ length: 8 }, (_, i) => [START[0] + 200 * (i + 1), START[1] + 160 * (i + 1)]);
const FLING_GAP_MS = 40;

let files;
let store;
let site;
let browser;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const written = memoryStore();
  await writePyramidStore(written);
  files = new Map([...written.files].map(([key, bytes]) => [`${STORE}${key}`, bytes]));
  store = await startNetworkServer(files, LINK);
  site = await serveRepository();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  site?.server.close();
  await store?.close();
});

// ---- what the test knows of the store, from its bytes ----------------------------

const INDEX_CRC = 4;

/** Each tile's byte range in its shard, from the shard's index: key "level/row/col" -> { path, start, end } (end exclusive). */
function tileRanges() {
  const ranges = new Map();
  LEVELS.forEach(({ path, shape, shard }, level) => {
    const per = shard.map((s) => s / TILE);
    for (let sy = 0; sy < shape[0] / shard[0]; sy++) {
      for (let sx = 0; sx < shape[1] / shard[1]; sx++) {
        const key = `${STORE}/${path}/c/${sy}/${sx}`;
        const bytes = files.get(key);
        const n = per[0] * per[1];
        const index = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 16 * n - INDEX_CRC, 16 * n);
        for (let i = 0; i < n; i++) {
          const start = Number(index.getBigUint64(16 * i, true));
          const length = Number(index.getBigUint64(16 * i + 8, true));
          const [row, col] = [sy * per[0] + Math.floor(i / per[1]), sx * per[1] + (i % per[1])];
          ranges.set(`${level}/${row}/${col}`, { path: key, start, end: start + length });
        }
      }
    }
  });
  return ranges;
}

/** "bytes=a-b" as [a, b + 1); undefined for a suffix (an index) or no range. */
function rangeOf(header) {
  const m = /^bytes=(\d+)-(\d+)$/.exec(header ?? "");
  return m ? [Number(m[1]), Number(m[2]) + 1] : undefined;
}

// ---- the page --------------------------------------------------------------------

/** Chromium's requests to the store's server, as its network events tell them. */
function recordNetwork(page) {
  const requests = [];
  const byRequest = new Map();
  const sizes = [];
  const path = (url) => decodeURIComponent(new URL(url).pathname);
  page.on("request", (request) => {
    if (!request.url().startsWith(store.url)) return;
    const entry = { method: request.method(), path: path(request.url()), range: request.headers().range, outcome: "pending", bodyBytes: 0 };
    byRequest.set(request, entry);
    requests.push(entry);
  });
  page.on("requestfinished", (request) => {
    const entry = byRequest.get(request);
    if (!entry) return;
    entry.outcome = "finished";
    sizes.push(request.sizes().then((s) => (entry.bodyBytes = s.responseBodySize)));
  });
  page.on("requestfailed", (request) => {
    const entry = byRequest.get(request);
    if (!entry) return;
    entry.outcome = "failed";
    entry.failure = request.failure()?.errorText;
  });
  // Every request's last event has come (they come from Chromium's
  // process, after the page's own promises settle), and its sizes.
  const settled = async () => {
    for (let waited = 0; requests.some((e) => e.outcome === "pending") && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    await Promise.all(sizes);
  };
  return { requests, settled };
}

const idle = (page) => page.waitForFunction(() => window.tileViewer?.idle() || window.tileViewer?.state.error, null, { timeout: 30000, polling: 20 });

/**
 * Every tile the page holds decoded, and the overview, compared value by
 * value with the formula: the first difference, or null. Returns the
 * tiles compared too.
 */
async function decodedAgainstFormula(page) {
  const held = await page.evaluate(() => {
    const base64 = (values) => {
      const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
      let s = "";
      for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
      return btoa(s);
    };
    const tv = window.tileViewer;
    const tiles = tv.tiles().filter((t) => t.status === "loaded").map((t) => ({ ...t, values: base64(tv.tileValues(t.level, t.row, t.col)) }));
    const o = tv.overview();
    return { tiles, overview: { level: o.level, values: base64(o.values) } };
  });
  const decode = (b64) => {
    const bytes = Buffer.from(b64, "base64");
    return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  };
  const [oh, ow] = LEVELS[held.overview.level].shape;
  const blocks = [{ level: held.overview.level, y0: 0, x0: 0, h: oh, w: ow, values: decode(held.overview.values) }];
  for (const t of held.tiles) blocks.push({ level: t.level, y0: t.row * TILE, x0: t.col * TILE, h: TILE, w: TILE, values: decode(t.values) });
  for (const b of blocks) {
    if (b.values.length !== b.h * b.w) return { difference: `level ${b.level} at (${b.y0}, ${b.x0}): ${b.values.length} values, ${b.h * b.w} expected`, tiles: held.tiles };
    for (let y = 0; y < b.h; y++) {
      for (let x = 0; x < b.w; x++) {
        const [got, want] = [b.values[y * b.w + x], pixel(b.level, b.y0 + y, b.x0 + x)];
        if (got !== want) return { difference: `level ${b.level} pixel (${b.y0 + y}, ${b.x0 + x}): ${got} != ${want}`, tiles: held.tiles };
      }
    }
  }
  return { difference: null, tiles: held.tiles };
}

/** Canvas pixels on a grid over the view, against the formula's gray (v >> 8) where a tile of the view's level is drawn. */
async function canvasAgainstFormula(page, tiles) {
  const { view, width, height, levels, samples } = await page.evaluate(() => {
    const canvas = document.getElementById("canvas");
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    const samples = [];
    for (let y = 3; y < canvas.height; y += 37) for (let x = 5; x < canvas.width; x += 41) samples.push({ x, y, rgb: [data[4 * (y * canvas.width + x)], data[4 * (y * canvas.width + x) + 1], data[4 * (y * canvas.width + x) + 2]] });
    return { view: window.tileViewer.view(), width: canvas.width, height: canvas.height, levels: window.tileViewer.levels(), samples };
  });
  const loaded = new Set(tiles.filter((t) => t.level === view.level).map((t) => `${t.row}/${t.col}`));
  const factor = levels[view.level].factor;
  const x0 = Math.round(view.x / factor - width / 2);
  const y0 = Math.round(view.y / factor - height / 2);
  let checked = 0;
  for (const { x, y, rgb } of samples) {
    const [ly, lx] = [y0 + y, x0 + x];
    if (!loaded.has(`${Math.floor(ly / TILE)}/${Math.floor(lx / TILE)}`)) continue;
    const g = pixel(view.level, ly, lx) >> 8;
    if (rgb.some((v) => v !== g)) return { difference: `canvas (${y}, ${x}), level ${view.level} pixel (${ly}, ${lx}): [${rgb}] != gray ${g}`, checked };
    checked++;
  }
  return { difference: null, checked };
}

/** What one phase of the session cost: the scheduler's figures, Chromium's requests and the server's. */
function phaseCost(before, after, chromium, server) {
  const delta = Object.fromEntries(["sent", "droppedBeforeSending", "abortedInFlight", "bytes"].map((k) => [k, after.stats.scheduler[k] - before.stats.scheduler[k]]));
  const asked = chromium.slice(before.chromium, after.chromium).filter(isData);
  const reached = server.slice(before.server, after.server).filter(isData);
  return {
    scheduler: delta,
    reads: { asked: after.stats.reads.started - before.stats.reads.started, aborted: after.stats.reads.aborted - before.stats.reads.aborted },
    chromium: { requests: asked.length, failed: asked.filter((e) => e.outcome === "failed").length, bodyBytes: sum(asked, (e) => e.bodyBytes) },
    server: { requests: reached.length, dropped: reached.filter((e) => e.dropped).length, aborted: reached.filter((e) => e.aborted).length, linkBytes: sum(reached, (e) => e.bytes) },
  };
}
const isData = (e) => e.method === "GET" && /\/c\//.test(e.path);
const sum = (list, f) => list.reduce((n, e) => n + f(e), 0);
const MB = (n) => `${(n / 1e6).toFixed(2)} MB`;

test("a fling and a zoom: values right, no chunk of a stale tile placed after its abort, requests and bytes as Chromium and the server count them", async () => {
  const ranges = tileRanges();
  const { page, problems } = await openPage(browser);
  const network = recordNetwork(page);
  // Before the page: nothing sent, nothing asked.
  const zero = { scheduler: { sent: 0, droppedBeforeSending: 0, abortedInFlight: 0, bytes: 0 }, reads: { started: 0, aborted: 0 } };
  const marks = [{ name: "start", stats: zero, chromium: 0, server: store.requests().length }];
  const mark = async (name) => {
    marks.push({ name, stats: await page.evaluate(() => window.tileViewer.stats()), chromium: network.requests.length, server: store.requests().length });
  };
  try {
    const t0 = Date.now();
    await page.goto(`${site.url}/examples/tile-viewer/?store=${store.url}${STORE}/&level=0&x=${START[0]}&y=${START[1]}`);
    await idle(page);
    await mark("open");
    expect(await page.evaluate(() => window.tileViewer.state.error)).toBeNull();
    const first = await decodedAgainstFormula(page);
    expect(first.difference).toBeNull();
    expect(first.tiles.length).toBeGreaterThan(0);

    // The fling: 8 pans 40 ms apart, each view stale before it is read.
    const lastPan = await page.evaluate(async ({ steps, gap }) => {
      for (const [i, [x, y]] of steps.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, gap));
        window.tileViewer.panTo(x, y);
      }
      return performance.now();
    }, { steps: FLING, gap: FLING_GAP_MS });
    await idle(page);
    await mark("fling");
    const afterFling = await decodedAgainstFormula(page);
    expect(afterFling.difference).toBeNull();
    const flung = await canvasAgainstFormula(page, afterFling.tiles);
    expect(flung.difference).toBeNull();
    expect(flung.checked).toBeGreaterThan(100);
    // When the last view's tiles were read, from the last pan (ms).
    const doneAt = new Map((await page.evaluate(() => window.tileViewer.events())).filter((e) => e.kind === "done").map((e) => [e.tile, e.t - lastPan]));
    const lastOf = (list) => Math.round(Math.max(0, ...list.map((t) => doneAt.get(t.key))));
    const lastView = { visible: lastOf(afterFling.tiles.filter((t) => t.visible)), ring: lastOf(afterFling.tiles.filter((t) => !t.visible)) };

    // A pan to tiles the fling never asked (none in the cache), and a zoom
    // out 30 ms later, before they are read.
    await page.evaluate(async () => {
      window.tileViewer.panTo(400, 1750);
      await new Promise((r) => setTimeout(r, 30));
      window.tileViewer.zoomTo(1);
    });
    await idle(page);
    await mark("zoom");
    const afterZoom = await decodedAgainstFormula(page);
    expect(afterZoom.difference).toBeNull();
    expect(afterZoom.tiles.length).toBeGreaterThan(0);
    expect(afterZoom.tiles.every((t) => t.level === 1)).toBe(true);
    const drawn = await canvasAgainstFormula(page, afterZoom.tiles);
    expect(drawn.difference).toBeNull();
    expect(drawn.checked).toBeGreaterThan(100);
    const seconds = (Date.now() - t0) / 1000;

    // ---- no stale tile: nothing of a read placed, resolved or drawn after its abort ----
    const events = await page.evaluate(() => window.tileViewer.events());
    const reads = new Map();
    events.forEach((e, i) => {
      if (!reads.has(e.read)) reads.set(e.read, { tile: e.tile, kinds: [] });
      reads.get(e.read).kinds.push({ kind: e.kind, i });
    });
    const aborted = [...reads.values()].filter((r) => r.kinds.some((k) => k.kind === "aborted"));
    const staleAfterAbort = aborted.filter((r) => {
      const at = r.kinds.find((k) => k.kind === "aborted").i;
      return r.kinds.some((k) => k.i > at && k.kind !== "rejected");
    });
    expect(staleAfterAbort).toEqual([]);
    // Each aborted read rejected with its abort.
    const rejections = events.filter((e) => e.kind === "rejected");
    expect(rejections).toHaveLength(aborted.length);
    expect(new Set(rejections.map((e) => e.detail))).toEqual(new Set(["AbortError"]));
    const abortedBy = (name) => marks.find((m) => m.name === name).stats.reads.aborted;
    expect(abortedBy("zoom") - abortedBy("open")).toBeGreaterThan(0);

    // ---- requests and bytes: the scheduler, Chromium and the server ----
    await network.settled();
    const { scheduler, cache, pool } = await page.evaluate(() => window.tileViewer.stats());
    const chromium = network.requests.filter(isData);
    const server = store.requests().filter(isData);
    const finished = chromium.filter((e) => e.outcome === "finished");
    const failed = chromium.filter((e) => e.outcome === "failed");
    // Metadata is zarrita's (zarr.open), outside the scheduler: the group's
    // and each level's zarr.json, once.
    expect(network.requests.filter((e) => !isData(e) && e.method === "GET").map((e) => e.path).sort())
      .toEqual([`${STORE}/zarr.json`, ...LEVELS.map((l) => `${STORE}/${l.path}/zarr.json`)].sort());
    // Each request the scheduler sent is one fetch, one request Chromium made.
    expect(chromium).toHaveLength(scheduler.sent);
    expect(finished.length + failed.length).toBe(scheduler.sent);
    // Chromium fails a request only at its abort, one the scheduler counts
    // as aborted in flight; it may count one more whose answer Chromium had
    // whole when every read waiting on it aborted.
    expect(new Set(failed.map((e) => e.failure))).toEqual(new Set(failed.length ? ["net::ERR_ABORTED"] : []));
    expect(failed.length).toBeLessThanOrEqual(scheduler.abortedInFlight);
    // The bytes: those of the answers the page took whole. Where the two
    // aborted counts agree, exactly Chromium's bodies of finished requests.
    const bodies = sum(finished, (e) => e.bodyBytes);
    expect(scheduler.bytes).toBeLessThanOrEqual(bodies);
    if (failed.length === scheduler.abortedInFlight) expect(scheduler.bytes).toBe(bodies);
    // The link carried every body Chromium received whole, and the parts
    // of answers aborted while they were sent.
    expect(sum(server, (e) => e.bytes)).toBeGreaterThanOrEqual(bodies);
    // Nothing reached the server that Chromium did not send: its log (each
    // request by path and range) is within Chromium's. So the requests the
    // scheduler dropped before sending reached neither.
    const unmatched = [...chromium];
    for (const q of server) {
      const at = unmatched.findIndex((e) => e.path === q.path && e.range === q.range);
      expect(at).toBeGreaterThanOrEqual(0);
      unmatched.splice(at, 1);
    }
    expect(unmatched.every((e) => e.outcome === "failed")).toBe(true);
    expect(scheduler.droppedBeforeSending).toBeGreaterThan(0);
    // Tiles aborted before any chunk was placed whose chunk's bytes no
    // request Chromium made would have held: their reads sent nothing.
    const asked = chromium.filter((e) => rangeOf(e.range)).map((e) => ({ path: e.path, range: rangeOf(e.range) }));
    const neverSent = aborted.filter((r) => {
      if (r.kinds.some((k) => k.kind === "placed")) return false;
      const t = ranges.get(r.tile);
      return !asked.some((q) => q.path === t.path && q.range[0] <= t.start && t.end <= q.range[1]);
    });
    expect(neverSent.length).toBeGreaterThan(0);

    const phases = Object.fromEntries(marks.slice(1).map((m, i) => [m.name, phaseCost(marks[i], m, network.requests, store.requests())]));
    console.log([
      `tile viewer session: ${seconds.toFixed(1)} s; the fling's last view read ${lastView.visible} ms (visible) and ${lastView.ring} ms (with the ring) after its pan`,
      ...Object.entries(phases).map(([name, p]) => `${name}: ${p.reads.asked} tiles asked, ${p.reads.aborted} aborted; scheduler sent ${p.scheduler.sent}, dropped ${p.scheduler.droppedBeforeSending} before sending, ` +
        `aborted ${p.scheduler.abortedInFlight} in flight, ${MB(p.scheduler.bytes)}; Chromium ${p.chromium.requests} requests, ${p.chromium.failed} failed, ${MB(p.chromium.bodyBytes)} of finished bodies; ` +
        `server ${p.server.requests} requests (${p.server.dropped} dropped unserved, ${p.server.aborted} aborted while sent), ${MB(p.server.linkBytes)} on the link`),
      `aborted reads ${aborted.length}, ${neverSent.length} of them sent nothing; cache ${cache.hits} hits, ${cache.misses} misses; pool decoded ${pool.chunks} chunks`,
    ].join("\n"));
    expect(problems).toEqual([]);
  } finally {
    await page.close();
  }
});
