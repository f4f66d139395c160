// The tile viewer: a multiscale 2-D uint16 image (an OME-Zarr 0.5 group of
// levels, each a sharded array of 256 x 256 inner chunks) drawn in 256 x 256
// tiles, pannable and zoomable by level, every tile read by read() on one
// read scheduler, one chunk cache and one read pool:
//   - the overview (the coarsest level) is read first, at the highest
//     priority, and drawn stretched under the tiles;
//   - the tiles the view shows are read at a high priority that falls with
//     their distance to the view's centre, and the ring of tiles around
//     them at the lowest: each priority is a function the scheduler asks
//     again each time a slot frees, so what waits reorders as the view
//     moves, without asking again;
//   - each tile has its own AbortController, aborted when the tile leaves
//     the view and its ring (a pan, a fling, a zoom): its requests not yet
//     sent are dropped, never sent.
// URL parameters: ?store=URL (default ./data.zarr/, the sample that
// scripts/make-tile-viewer-store.mjs writes), ?level=N, ?x=..&y=.. (the
// view's centre in level-0 pixels), ?ring=N (tiles of prefetch around the
// view, 0 to 4; default 1). window.tileViewer is the page's API
// (docs/viewer.md, "The tile viewer"), for people at the console and for
// the browser test.
import * as zarr from "zarrita";
import { createChunkCache, createReadPool, createReadScheduler, read, register } from "zarr-codecs-wasm";
import { formatBytes } from "../viewer/format.js";
import { drawView, grayCanvas } from "./draw.js";
import { distanceToCentre, isVisible, RING, TILE, tileKey, wantedTiles } from "./tiles.js";

register(zarr.registry);

/** Higher first. Visible tiles fall from 100 and ring tiles from -100 with their distance (in tiles) to the centre. */
export const PRIORITY = { overview: 1000, visible: 100, ring: -100 };
const PAN_STEP = 128; // canvas pixels an arrow key moves the view
const EVENTS_KEPT = 100000;

const $ = (id) => document.getElementById(id);
const canvas = $("canvas");
const size = () => [canvas.width, canvas.height];

// One of each for the page: every read shares the scheduler's requests,
// the cache's decoded chunks and the pool's workers. inThreadChunks: 0,
// so that a tile (one chunk) is decoded in a worker too, not here.
const scheduler = createReadScheduler({ maxRequests: 6 });
const cache = createChunkCache({ maxBytes: 64 << 20 });
const pool = createReadPool({ inThreadChunks: 0 });

/** @type {{path: string, arr: any, shape: number[], factor: number}[]} */
let levels = [];
let overview = null; // { level, values, canvas } once read
let view = { level: 0, x: 0, y: 0 };
let ring = RING; // tiles of prefetch around the view (?ring=N)
/** The tiles the view wants (its level's visible ones and ring), read or on their way, by key. */
const tiles = new Map();
let readsStarted = 0;
let readsPending = 0;
const counts = { done: 0, aborted: 0, failed: 0 };
/** What happened to each read, in order: { read, tile, kind, t } (kind: asked, placed, done, aborted, rejected, discarded, failed). */
const events = [];
const state = { ready: false, error: null };

function log(tile, kind, detail) {
  events.push({ read: tile.read, tile: tile.key, kind, t: performance.now(), ...(detail === undefined ? {} : { detail }) });
  if (events.length > EVENTS_KEPT) events.splice(0, events.length - EVENTS_KEPT / 2);
}

// ---- opening --------------------------------------------------------------------

async function openPyramid(storeUrl) {
  // cache: "no-store": Chromium's HTTP cache sends concurrent range
  // requests of one URL one at a time (a lock per URL), so a shard's
  // ranges would wait in line behind each other; the chunk cache keeps
  // what the viewer reads again (docs/read.md, "Priority and cancellation").
  const root = zarr.root(new zarr.FetchStore(storeUrl, { useSuffixRequest: true, overrides: { cache: "no-store" } }));
  const group = await zarr.open.v3(root, { kind: "group" });
  const image = group.attrs?.ome?.multiscales?.[0];
  if (!image?.datasets?.length) throw new Error(`no ome.multiscales in the attributes of ${storeUrl}zarr.json: the tile viewer opens an OME-Zarr 0.5 image group`);
  const opened = await Promise.all(image.datasets.map(async (d) => {
    const arr = await zarr.open.v3(root.resolve(d.path), { kind: "array" });
    if (arr.shape.length !== 2 || arr.dtype !== "uint16") {
      throw new Error(`level ${d.path} is ${arr.dtype} of shape [${arr.shape}]: the tile viewer draws 2-D uint16 images`);
    }
    const scale = d.coordinateTransformations?.find((t) => t.type === "scale")?.scale ?? [1, 1];
    return { path: d.path, arr, shape: arr.shape, scale: scale.at(-1) };
  }));
  return opened.map(({ scale, ...l }) => ({ ...l, factor: scale / opened[0].scale }));
}

// ---- reading --------------------------------------------------------------------

// A tile's priority now: asked by the scheduler (and the pool) each time a
// slot frees, so it follows the view.
function priorityOf(tile) {
  if (tile.level !== view.level) return PRIORITY.ring - 1000; // aborted already; never ahead of anything
  const level = levels[tile.level];
  const d = distanceToCentre(view, level, tile.row, tile.col);
  return isVisible(view, level, size(), tile.row, tile.col) ? PRIORITY.visible - d : PRIORITY.ring - d;
}

function selectionOf(level, row, col) {
  const [h, w] = levels[level].shape;
  return [zarr.slice(row * TILE, Math.min(h, row * TILE + TILE)), zarr.slice(col * TILE, Math.min(w, col * TILE + TILE))];
}

function startTile(level, { key, row, col }) {
  const controller = new AbortController();
  const tile = { key, level, row, col, read: ++readsStarted, controller, status: "reading", values: null, canvas: null };
  tiles.set(key, tile);
  readsPending++;
  log(tile, "asked");
  read(levels[level].arr, selectionOf(level, row, col), {
    scheduler, cache, pool,
    signal: controller.signal,
    priority: () => priorityOf(tile),
    onProgress: () => log(tile, "placed"),
  }).then(
    (result) => {
      // A read that resolved after its abort is stale: never drawn.
      if (controller.signal.aborted) return log(tile, "discarded");
      Object.assign(tile, { status: "loaded", values: result.data, canvas: grayCanvas(result.data, ...result.shape) });
      counts.done++;
      log(tile, "done");
      redraw();
    },
    (error) => {
      if (controller.signal.aborted) return log(tile, "rejected", error?.name);
      tile.status = "failed";
      counts.failed++;
      log(tile, "failed", String(error?.message ?? error));
      showError(`tile ${key}: ${error?.code ? `${error.code}: ` : ""}${error?.message ?? error}`);
    },
  ).finally(() => {
    readsPending--;
    redraw();
  });
}

function abortTile(tile) {
  if (tile.status === "reading") {
    tile.status = "aborted";
    counts.aborted++;
    log(tile, "aborted");
    tile.controller.abort();
  }
  tiles.delete(tile.key);
}

// The view changed: tiles that left it and its ring are aborted (or, read
// already, let go: the chunk cache keeps their chunks), the new ones asked.
function update() {
  const level = levels[view.level];
  const wanted = wantedTiles(view, level, size(), ring);
  const keys = new Set(wanted.map((t) => t.key));
  for (const tile of [...tiles.values()]) if (!keys.has(tile.key)) abortTile(tile);
  for (const t of wanted) if (!tiles.has(t.key)) startTile(view.level, t);
  redraw();
}

async function readOverview() {
  const level = levels.length - 1;
  const tile = { key: `overview ${level}`, read: 0 };
  readsPending++;
  try {
    const { data, shape } = await read(levels[level].arr, null, { scheduler, cache, pool, priority: PRIORITY.overview });
    overview = { level, values: data, canvas: grayCanvas(data, ...shape) };
    log(tile, "done");
  } catch (error) {
    log(tile, "failed", String(error?.message ?? error));
    showError(`the overview (level ${levels[level].path}): ${error?.code ? `${error.code}: ` : ""}${error?.message ?? error}`);
  } finally {
    readsPending--;
    redraw();
  }
}

// ---- moving -----------------------------------------------------------------------

function setView(next) {
  const [h, w] = levels[0].shape;
  const level = Math.max(0, Math.min(levels.length - 1, Math.round(next.level ?? view.level)));
  view = { level, x: Math.max(0, Math.min(w, next.x ?? view.x)), y: Math.max(0, Math.min(h, next.y ?? view.y)) };
  update();
}

const panBy = (dx, dy) => setView({ x: view.x + dx, y: view.y + dy });
const zoomTo = (level) => setView({ level });

// Dragging pans; letting go while moving flings the view on, slowing down.
let drag = null;
let fling = 0;
canvas.addEventListener("pointerdown", (event) => {
  cancelAnimationFrame(fling);
  canvas.setPointerCapture(event.pointerId);
  drag = { x: event.clientX, y: event.clientY, moves: [] };
});
canvas.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const f = levels[view.level]?.factor ?? 1;
  const [dx, dy] = [event.clientX - drag.x, event.clientY - drag.y];
  Object.assign(drag, { x: event.clientX, y: event.clientY });
  drag.moves.push({ dx, dy, t: performance.now() });
  panBy(-dx * f, -dy * f);
});
canvas.addEventListener("pointerup", () => {
  if (!drag) return;
  const now = performance.now();
  const recent = drag.moves.filter((m) => now - m.t < 80);
  drag = null;
  if (recent.length < 2) return;
  const ms = Math.max(1, now - recent[0].t);
  let vx = -recent.reduce((s, m) => s + m.dx, 0) / ms;
  let vy = -recent.reduce((s, m) => s + m.dy, 0) / ms;
  let last = now;
  const step = (t) => {
    const dt = t - last;
    last = t;
    const f = levels[view.level].factor;
    panBy(vx * dt * f, vy * dt * f);
    const decay = Math.exp(-dt / 300);
    vx *= decay;
    vy *= decay;
    if (Math.hypot(vx, vy) > 0.02) fling = requestAnimationFrame(step);
  };
  fling = requestAnimationFrame(step);
});
canvas.addEventListener("keydown", (event) => {
  const f = levels[view.level]?.factor ?? 1;
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[event.key]) panBy(moves[event.key][0] * PAN_STEP * f, moves[event.key][1] * PAN_STEP * f);
  else if (event.key === "+" || event.key === "=") zoomTo(view.level - 1);
  else if (event.key === "-") zoomTo(view.level + 1);
  else return;
  event.preventDefault();
});
$("zoom-in").onclick = () => zoomTo(view.level - 1);
$("zoom-out").onclick = () => zoomTo(view.level + 1);

// ---- showing -----------------------------------------------------------------------

let frame = 0;
function redraw() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    if (!levels.length) return;
    const all = [...tiles.values()];
    const waiting = all.filter((t) => t.status === "reading" && isVisible(view, levels[view.level], size(), t.row, t.col));
    drawView(canvas, view, levels, overview, all.filter((t) => t.status === "loaded"), waiting);
    showStats();
  });
}

function showStats() {
  const s = scheduler.stats();
  const c = cache.stats();
  const p = pool.stats();
  const all = [...tiles.values()];
  const rows = [
    ["view", `level ${levels[view.level].path} (${levels[view.level].shape.join(" x ")}), centre ${Math.round(view.x)}, ${Math.round(view.y)} of level 0`],
    ["tiles", `${all.filter((t) => t.status === "loaded").length} of ${all.length} wanted read (${all.filter((t) => isVisible(view, levels[view.level], size(), t.row, t.col)).length} visible, the rest the ring); overview ${overview ? "read" : "on its way"}`],
    ["reads", `${readsStarted} tiles asked: ${counts.done} read, ${counts.aborted} aborted, ${counts.failed} failed; ${readsPending} pending`],
    ["scheduler", `${s.waiting} waiting, ${s.inFlight} in flight (at most ${s.maxRequests}); ${s.sent} sent, ${s.droppedBeforeSending} dropped before sending, ${s.abortedInFlight} aborted in flight; ${formatBytes(s.bytes)}`],
    ["chunk cache", `${c.entries} chunks, ${formatBytes(c.bytes)} of ${formatBytes(c.maxBytes)}; ${c.hits} hits, ${c.misses} misses, ${c.evictions} evicted`],
    ["read pool", `${p.alive} of ${pool.workers} workers; ${p.chunks} chunks decoded in ${p.jobs} jobs`],
  ];
  $("stats").replaceChildren(...rows.map(([k, v]) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    const td = document.createElement("td");
    th.textContent = k;
    td.textContent = v;
    tr.append(th, td);
    return tr;
  }));
}

function showError(message) {
  state.error = message;
  $("status").textContent = message;
  $("status").className = "error";
}

// ---- the page's API ------------------------------------------------------------------

/** The value at (y, x) of `level` where the page holds it decoded (a tile read, or the overview), else null. */
function pixel(level, x, y) {
  if (overview?.level === level) return overview.values[y * levels[level].shape[1] + x];
  const tile = tiles.get(tileKey(level, Math.floor(y / TILE), Math.floor(x / TILE)));
  if (tile?.status !== "loaded") return null;
  const width = Math.min(TILE, levels[level].shape[1] - tile.col * TILE);
  return tile.values[(y % TILE) * width + (x % TILE)];
}

window.tileViewer = {
  state,
  panTo: (x, y) => setView({ x, y }),
  panBy,
  zoomTo,
  view: () => ({ ...view }),
  levels: () => levels.map(({ path, shape, factor }) => ({ path, shape: [...shape], factor })),
  /** The tiles the view wants: { key, level, row, col, read, status, visible }. */
  tiles: () => [...tiles.values()].map(({ key, level, row, col, read: id, status }) =>
    ({ key, level, row, col, read: id, status, visible: isVisible(view, levels[level], size(), row, col) })),
  /** A tile's decoded values (a Uint16Array) where it is read, else null. */
  tileValues: (level, row, col) => tiles.get(tileKey(level, row, col))?.values ?? null,
  overview: () => overview && { level: overview.level, values: overview.values },
  pixel,
  events: () => events.slice(),
  /** Every wanted tile and the overview read, and no read pending (aborted ones settled too). */
  idle: () => state.ready && overview !== null && readsPending === 0 && [...tiles.values()].every((t) => t.status === "loaded"),
  stats: () => ({ scheduler: scheduler.stats(), cache: cache.stats(), pool: pool.stats(), reads: { started: readsStarted, pending: readsPending, ...counts } }),
};

// ---- start ------------------------------------------------------------------------------

async function start() {
  const params = new URLSearchParams(location.search);
  const storeUrl = new URL(params.get("store") ?? "./data.zarr/", location.href).href;
  $("store").textContent = storeUrl;
  try {
    levels = await openPyramid(storeUrl);
  } catch (error) {
    showError(`could not open ${storeUrl}: ${error?.code ? `${error.code}: ` : ""}${error?.message ?? error}`);
    return;
  }
  const [h, w] = levels[0].shape;
  const number = (name, fallback) => (params.has(name) && Number.isFinite(Number(params.get(name))) ? Number(params.get(name)) : fallback);
  ring = Math.max(0, Math.min(4, Math.round(number("ring", RING))));
  // The overview first: asked before any tile, at the highest priority.
  readOverview();
  setView({ level: number("level", 0), x: number("x", w / 2), y: number("y", h / 2) });
  state.ready = true;
  $("status").textContent = `${levels.length} levels: ${levels.map((l) => `${l.path} (${l.shape.join(" x ")})`).join(", ")}. Drag (and let go to fling), arrow keys, + and - (or the buttons) to zoom.`;
  setInterval(showStats, 250);
}

start();
