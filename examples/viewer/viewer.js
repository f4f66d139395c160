// The viewer page: reads what read-slice.js returns for an array, in this
// page or in a Web Worker, and shows it: numbers as an image through a
// contrast window (linear or symmetric log) with its legend and an
// optional bool mask overlaid, a struct array as a table of its first
// records plus one numeric field as an image, a string array as a table.
// Every load starts from cleared panels, so a failed one leaves nothing of
// the array before it. URL parameters (docs/viewer.md):
//   ?store=URL        the store (default ./data.zarr/, the demo's sample store)
//   ?array=PATH       the array in it (default image)
//   ?format=n5|zarr   what the store is (default: N5 where its root has
//                     attributes.json and no zarr.json)
//   ?overlay=PATH     a bool array of the same 2-D shape drawn in red
//                     (default mask when viewing the sample image; none if empty)
//   ?decode=pool|main|worker   where to decode: a read pool's workers
//                     (the default), this page, or a Web Worker
//   ?contrast=linear|symlog   the contrast scale (default linear)
//   ?window=auto|minmax   the contrast window: the type's range or robust
//                     percentiles of the slice (auto, the default), or the
//                     slice's finite minimum and maximum
//   ?field=NAME       the struct field drawn (default the first numeric one)
//   ?rows=N           rows of the tables (default 20)
import { createReadPool, hasWasmSimd, ready } from "zarr-codecs-wasm";
import { smallestMagnitude, sliderScale, valueRange } from "./contrast.js";
import { formatDuration, formatRequests, formatValue } from "./format.js";
import { MIN_MS, MIN_REPEAT, readSlice, TABLE_ROWS } from "./read-slice.js";
import { legendOf, renderRGBA } from "./render.js";

const DEFAULT_STORE = "./data.zarr/";
const $ = (id) => document.getElementById(id);

function settingsOf(search) {
  const params = new URLSearchParams(search);
  const arrayPath = params.get("array") ?? "image";
  const rows = Number(params.get("rows"));
  const format = params.get("format");
  return {
    params,
    where: ["main", "worker"].includes(params.get("decode")) ? params.get("decode") : "pool",
    storeParam: params.get("store") ?? DEFAULT_STORE,
    storeUrl: new URL(params.get("store") ?? DEFAULT_STORE, location.href).href,
    arrayPath,
    overlayPath: params.get("overlay") ?? (!params.has("store") && arrayPath === "image" ? "mask" : ""),
    format: format === "n5" || format === "zarr" ? format : "auto",
    scale: params.get("contrast") === "symlog" ? "symlog" : "linear",
    window: params.get("window") === "minmax" ? "minmax" : "auto",
    field: params.get("field"),
    rows: Number.isInteger(rows) && rows > 0 ? Math.min(rows, 1000) : TABLE_ROWS,
  };
}

// For people and for the browser test alike.
const state = { ready: false, error: null, loads: 0 };
window.viewerState = state;

// ---- reading, here or in the worker ----------------------------------------

let worker;
let nextId = 0;
const pending = new Map();
function readInWorker(storeUrl, arrayPath, options) {
  if (!worker) {
    worker = new Worker(new URL("./build/decode-worker.js", import.meta.url), { type: "module" });
    worker.onerror = (event) => {
      for (const { reject } of pending.values()) reject(new Error(`the worker failed to load: ${event.message ?? "build/decode-worker.js missing? run npm run viewer"}`));
      pending.clear();
    };
    worker.onmessage = ({ data }) => {
      const { resolve, reject } = pending.get(data.id);
      pending.delete(data.id);
      // The worker's error rebuilt with its own name and code.
      if (data.error) reject(Object.assign(new Error(data.error.message), { name: data.error.name, code: data.error.code }));
      else resolve(data.result);
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, storeUrl, arrayPath, options });
  });
}

// The read pool: made on its first use, kept warm for every load after;
// the cores less one, and at least two workers, so the grid shows them share.
let pool;
const POOL_WORKERS = Math.max(2, (navigator.hardwareConcurrency ?? 2) - 1);
const WORKER_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const workerColour = (w) => WORKER_COLOURS[w % WORKER_COLOURS.length];

async function read(s, path, what) {
  const options = { format: s.format, rows: s.rows };
  if (s.where === "pool") options.pool = pool ??= createReadPool({ workers: POOL_WORKERS });
  try {
    return await (s.where === "worker" ? readInWorker(s.storeUrl, path, options) : readSlice(s.storeUrl, path, options));
  } catch (error) {
    throw new Error(`could not read ${what} "${path}" of the store ${s.storeUrl}: ${reasonOf(error)}`, { cause: error });
  }
}

// "CODE: message" for the package's errors, "TypeError: message" for the
// platform's, the message alone for a plain Error: never "Error: Error:".
function reasonOf(error) {
  const label = error.code ?? (error.name && error.name !== "Error" ? error.name : "");
  const message = String(error.message ?? error);
  return label && !message.startsWith(`${label}:`) ? `${label}: ${message}` : message;
}

// ---- panels ------------------------------------------------------------------

// Text that may break after / , { [ : = & ? (URLs, JSON) and at spaces,
// never inside a word.
function breakable(text) {
  const fragment = document.createDocumentFragment();
  for (const part of String(text).split(/(?<=[/,{[:=&?])/)) {
    if (fragment.childNodes.length) fragment.append(document.createElement("wbr"));
    fragment.append(part);
  }
  return fragment;
}

function clearPanels() {
  const canvas = $("canvas");
  canvas.hidden = true;
  canvas.width = canvas.height = 1;
  canvas.classList.remove("strip");
  for (const id of ["legend", "table", "info", "times", "field", "workers"]) $(id).replaceChildren();
  for (const id of ["table-title", "summary", "lo-value", "hi-value", "caption"]) $(id).textContent = "";
  $("caption").hidden = true;
  $("table-panel").hidden = true;
  $("field-panel").hidden = true;
  $("contrast-panel").hidden = true;
  $("overlay").checked = false;
  $("overlay").disabled = true;
  image = null;
  Object.assign(state, {
    kind: null, info: null, chunkMs: [], chunkWorkers: [], overlayChunkMs: [], medianMs: null, range: null, window: null, lo: null, hi: null,
    overlay: false, c: null, legend: [], field: null, fields: [], table: null,
  });
}

function showInfo(info, s, shown) {
  const rows = [
    ["array", s.arrayPath || "/"],
    ["store", s.storeUrl],
    ["format", info.format],
    ["stored type", info.storedType],
    ["presented as", info.native ? `${info.presented} (zarrita reads it natively)` : info.presented],
    ["codecs", info.codecs],
    ["shape", `${JSON.stringify(info.storedShape)} stored, ${JSON.stringify(info.presentedShape)} presented, chunks ${JSON.stringify(info.chunks)}`],
    ["slice", `[${info.selection}]: ${shown}`],
  ];
  $("info").replaceChildren(...rows.map(([k, v]) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    const td = document.createElement("td");
    th.textContent = k;
    td.append(breakable(v));
    tr.append(th, td);
    return tr;
  }));
}

function showTimes(s, chunkMs, columns, overlayChunkMs, requests) {
  const rows = [];
  for (let i = 0; i < chunkMs.length; i += columns) {
    const tr = document.createElement("tr");
    for (const { coords, ms, decodes, worker } of chunkMs.slice(i, i + columns)) {
      const td = document.createElement("td");
      td.textContent = formatDuration(ms);
      td.title = `chunk ${coords.join(",")}: mean of ${decodes} decodes`;
      if (Number.isInteger(worker)) {
        // The pool's worker that decoded it in the read: its colour.
        td.dataset.worker = String(worker);
        td.style.setProperty("--worker", workerColour(worker));
        td.title += `; read: decoded by the pool's worker ${worker}`;
      }
      tr.append(td);
    }
    rows.push(tr);
  }
  $("times").replaceChildren(...rows);
  // The median: one chunk slowed by a garbage collection or a JIT tier-up
  // (identical chunks range from 0.1 to 4.7 ms) does not move it.
  const mean = (list) => list.reduce((a, b) => a + b.ms, 0) / list.length;
  let summary = `${s.arrayPath}: ${formatDuration(median(chunkMs))} per chunk, the median of ${chunkMs.length} chunks ` +
    `(mean ${formatDuration(mean(chunkMs))}; each chunk decoded at least ${MIN_REPEAT} times and for at least ${MIN_MS} ms)`;
  if (overlayChunkMs.length) summary += `; ${s.overlayPath}: median ${formatDuration(median(overlayChunkMs))}`;
  $("summary").textContent = summary;
  // What the read of the slice asked the store for (read's own count).
  $("requests").textContent = requests ? `read of ${s.arrayPath}: ${formatRequests(requests)}` : "";
  // Which pool worker decoded which chunk: the mark on each cell's left.
  const workers = [...new Set(chunkMs.map((c) => c.worker).filter(Number.isInteger))].sort((a, b) => a - b);
  $("workers").replaceChildren(...(workers.length ? [`decoded by the read pool's workers (${pool.workers} at most): `] : []), ...workers.flatMap((w) => {
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = workerColour(w);
    const count = chunkMs.filter((c) => c.worker === w).length;
    return [swatch, `worker ${w}: ${count} chunk${count === 1 ? "" : "s"} `];
  }));
}

/** The median of chunk times ({ ms }): the middle one, or the mean of the middle two. */
function median(list) {
  const ms = list.map((c) => c.ms).sort((a, b) => a - b);
  const mid = ms.length >> 1;
  return ms.length % 2 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
}

function showTable(title, { columns, rows }) {
  const cell = (tag, content, isText) => {
    const c = document.createElement(tag);
    c.textContent = content;
    if (isText) c.className = "text";
    return c;
  };
  // Columns of strings (quoted by formatValue) line up on the left, numbers on the right.
  const text = columns.map((_, k) => rows.length > 0 && rows.every((row) => row[k].startsWith('"')));
  const head = document.createElement("tr");
  head.append(...columns.map((c, k) => cell("th", c, text[k])));
  const body = rows.map((row) => {
    const tr = document.createElement("tr");
    tr.append(...row.map((v, k) => cell("td", v, text[k])));
    return tr;
  });
  $("table").replaceChildren(head, ...body);
  $("table-title").textContent = title;
  $("table-panel").hidden = false;
}

// ---- the image -----------------------------------------------------------------

// What is drawn: { values, typeInfo, mask, range, integer, c, finite, slider }.
let image = null;

function showImage(values, typeInfo, mask, height, width, scale, windowMode) {
  const canvas = $("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.classList.toggle("strip", height === 1); // a 1-D array: one row, drawn as a band
  canvas.hidden = false;
  $("contrast-panel").hidden = false;
  let finite = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(Number(values[i]))) finite++;
  image = {
    values,
    typeInfo,
    mask,
    integer: !/^float/.test(typeInfo.presented),
    c: smallestMagnitude(values),
    finite,
  };
  useWindow(windowMode, scale);
}

// A window chosen (auto or minmax): its range, then the scale's sliders over it.
function useWindow(mode, scale = image.scale) {
  for (const input of document.querySelectorAll("input[name=window]")) input.checked = input.value === mode;
  image.window = mode;
  image.range = valueRange(image.typeInfo, image.values, mode);
  state.window = mode;
  useScale(scale);
}

// A scale chosen: the sliders span the whole range again.
function useScale(scale) {
  for (const input of document.querySelectorAll("input[name=scale]")) input.checked = input.value === scale;
  image.scale = scale;
  image.slider = sliderScale(scale, image.range, { integer: image.integer, c: image.c });
  for (const id of ["lo", "hi"]) {
    $(id).max = String(image.slider.steps);
    $(id).value = id === "lo" ? "0" : String(image.slider.steps);
  }
  Object.assign(state, { range: image.range, scale, c: image.c });
  draw();
}

function draw() {
  if (!image) return;
  const canvas = $("canvas");
  const ctx = canvas.getContext("2d");
  const pixels = ctx.createImageData(canvas.width, canvas.height);
  const view = {
    lo: image.slider.valueAt($("lo").value),
    hi: image.slider.valueAt($("hi").value),
    overlay: image.mask !== null && $("overlay").checked,
    scale: image.scale,
    c: image.c,
  };
  const counts = renderRGBA(image.values, image.mask, view, pixels.data);
  ctx.putImageData(pixels, 0, 0);
  $("lo-value").textContent = formatValue(view.lo);
  $("hi-value").textContent = formatValue(view.hi);
  const legend = legendOf(counts, view, image.finite, formatValue);
  $("legend").replaceChildren(...legend.map(({ label, colors }) => {
    const li = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colors.length === 2 ? `linear-gradient(to right, ${colors[0]}, ${colors[1]})` : colors[0];
    li.append(swatch, label);
    return li;
  }));
  Object.assign(state, { lo: view.lo, hi: view.hi, overlay: view.overlay, legend });
}

// ---- loading -------------------------------------------------------------------

// The URL of the page, changed: a new load (pushState) or a change of view
// (replaceState).
function setParams(change, { push = false } = {}) {
  const params = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(change)) {
    if (v === null) params.delete(k);
    else params.set(k, v);
  }
  history[push ? "pushState" : "replaceState"](null, "", `?${params}`);
}

function showField(result, name, s) {
  const field = result.fields.find((f) => f.name === name) ?? result.fields[0];
  $("field").value = field.name;
  state.field = field.name;
  const order = result.height === 1 ? "left to right" : "row by row";
  $("caption").textContent = `field ${field.name}: one pixel per record, ${order}`;
  $("caption").hidden = false;
  showImage(field.values, field, null, result.height, result.width, image?.scale ?? s.scale, image?.window ?? s.window);
}

async function load() {
  const generation = ++state.loads;
  const s = settingsOf(location.search);
  clearPanels();
  Object.assign(state, { ready: false, error: null, where: s.where });
  $("status").className = "";
  $("status").textContent = `loading ${s.arrayPath}`;
  $("store-input").value = s.storeParam;
  $("array-input").value = s.arrayPath;
  $("format-input").value = s.format;
  for (const input of document.querySelectorAll("input[name=where]")) input.checked = input.value === s.where;
  try {
    if (!hasWasmSimd()) throw new Error("this browser lacks WebAssembly SIMD");
    await ready();
    const result = await read(s, s.arrayPath, "array");
    const overlay = s.overlayPath && result.kind === "image" ? await read(s, s.overlayPath, "overlay") : null;
    if (overlay && (overlay.height !== result.height || overlay.width !== result.width || overlay.info.presented !== "bool")) {
      throw new Error(`the overlay "${s.overlayPath}" must be a bool array of ${result.height}x${result.width}`);
    }
    if (generation !== state.loads) return; // a newer load has begun
    show(result, overlay, s);
  } catch (error) {
    if (generation !== state.loads) return;
    clearPanels();
    state.error = error.message;
    $("status").replaceChildren(breakable(`error: ${error.message}`));
    $("status").className = "error";
    console.warn(error);
  }
}

function show(result, overlay, s) {
  const where = s.where === "worker" ? "a Web Worker (its own wasm instance)"
    : s.where === "pool" ? `a read pool of ${pool.workers} worker${pool.workers === 1 ? "" : "s"} (fetched here, decoded in the workers)`
    : "this page (zarrita + register())";
  const records = result.height * result.width;
  let shown;
  if (result.kind === "image") {
    shown = `${result.height}x${result.width} drawn`;
    $("overlay").disabled = !overlay;
    $("overlay").checked = !!overlay;
    showImage(result.values, result.info, overlay ? overlay.values : null, result.height, result.width, s.scale, s.window);
  } else if (result.kind === "struct") {
    const n = result.table.rows.length;
    showTable(`first ${n} of ${records} records`, result.table);
    shown = `${records} records, the first ${n} in the table`;
    if (result.fields.length) {
      $("field").replaceChildren(...result.fields.map(({ name, stored }) => new Option(`${name} (${stored})`, name)));
      $("field-panel").hidden = false;
      showField(result, s.field, s);
      $("field").onchange = () => {
        setParams({ field: $("field").value });
        showField(result, $("field").value, s);
      };
      shown += `; field ${state.field} drawn, ${result.height}x${result.width}`;
    }
  } else {
    const n = result.table.rows.length;
    showTable(`first ${n} of ${result.table.total} values`, result.table);
    shown = `${result.table.total} strings, the first ${n} in the table`;
  }
  showInfo(result.info, s, shown);
  showTimes(s, result.chunkMs, result.gridColumns, overlay?.chunkMs ?? [], result.requests);
  Object.assign(state, {
    kind: result.kind,
    info: result.info,
    table: result.table ?? null,
    fields: (result.fields ?? []).map((f) => f.name),
    chunkMs: result.chunkMs.map((c) => c.ms),
    chunkWorkers: result.chunkMs.map((c) => c.worker),
    medianMs: result.chunkMs.length ? median(result.chunkMs) : null,
    overlayChunkMs: overlay ? overlay.chunkMs.map((c) => c.ms) : [],
    requests: result.requests ?? null,
  });
  $("status").textContent = `decoded ${result.chunkMs.length} ${s.arrayPath} chunks` +
    (overlay ? ` and ${overlay.chunkMs.length} ${s.overlayPath} chunks` : "") + ` in ${where}`;
  state.ready = true;
}

// ---- controls --------------------------------------------------------------------

for (const id of ["lo", "hi", "overlay"]) $(id).oninput = draw;
for (const input of document.querySelectorAll("input[name=scale]")) {
  input.onchange = () => {
    setParams({ contrast: input.value === "linear" ? null : input.value });
    if (image) useScale(input.value);
  };
}
for (const input of document.querySelectorAll("input[name=window]")) {
  input.onchange = () => {
    setParams({ window: input.value === "auto" ? null : input.value });
    if (image) useWindow(input.value);
  };
}
for (const input of document.querySelectorAll("input[name=where]")) {
  input.onchange = () => {
    setParams({ decode: input.value }, { push: true });
    load();
  };
}
$("open").onsubmit = (event) => {
  event.preventDefault();
  const store = $("store-input").value.trim();
  setParams({
    store: store && store !== DEFAULT_STORE ? store : null,
    array: $("array-input").value.trim(),
    format: $("format-input").value === "auto" ? null : $("format-input").value,
    overlay: null, // of the array before
    field: null,
  }, { push: true });
  load();
};
window.addEventListener("popstate", load);
load();
