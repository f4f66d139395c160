// The viewer: reads a 2-D slice of any array of a store (read-slice.js),
// in this page or in a Web Worker, and draws it with a contrast window and
// an optional bool mask overlaid.
//   ?store=URL       the store (default ./data.zarr/, the demo's sample store)
//   ?array=PATH      the array in it (default image)
//   ?overlay=PATH    a bool array of the same 2-D shape drawn in red
//                    (default mask when viewing the sample image; none if empty)
//   ?decode=main|worker   where to decode (default main)
import { hasWasmSimd, ready } from "zarr-codecs-wasm";
import { readSlice, REPEAT } from "./read-slice.js";
import { renderRGBA, valueRange } from "./render.js";

const params = new URLSearchParams(location.search);
const where = params.get("decode") === "worker" ? "worker" : "main";
const storeUrl = new URL(params.get("store") ?? "./data.zarr/", location.href).href;
const arrayPath = params.get("array") ?? "image";
const overlayPath = params.get("overlay") ?? (!params.has("store") && arrayPath === "image" ? "mask" : "");
const $ = (id) => document.getElementById(id);

// For people and for the browser test alike.
const state = { ready: false, where, error: null, info: null, chunkMs: [], overlayChunkMs: [] };
window.viewerState = state;

let worker;
let nextId = 0;
const pending = new Map();
function readInWorker(path) {
  if (!worker) {
    worker = new Worker(new URL("./build/decode-worker.js", import.meta.url), { type: "module" });
    worker.onerror = (event) => {
      for (const { reject } of pending.values()) reject(new Error(`the worker failed to load: ${event.message ?? "build/decode-worker.js missing? run npm run viewer"}`));
      pending.clear();
    };
    worker.onmessage = ({ data }) => {
      const { resolve, reject } = pending.get(data.id);
      pending.delete(data.id);
      if (data.error) reject(new Error(data.error));
      else resolve(data);
    };
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, storeUrl, arrayPath: path });
  });
}

const read = (path) => (where === "worker" ? readInWorker(path) : readSlice(storeUrl, path));

function showInfo(info) {
  const stored = typeof info.stored === "string" ? info.stored : JSON.stringify(info.stored);
  const rows = [
    ["array", `${arrayPath} in ${storeUrl}`],
    ["stored type", stored],
    ["presented as", info.native ? `${info.presented} (zarrita reads it natively)` : info.presented],
    ["codecs", info.codecs],
    ["shape", `${JSON.stringify(info.storedShape)} stored, ${JSON.stringify(info.presentedShape)} presented, chunks ${JSON.stringify(info.chunks)}`],
    ["slice drawn", `[${info.selection}]`],
  ];
  $("info").innerHTML = rows.map(([k, v]) => `<tr><th>${k}</th><td>${escape(v)}</td></tr>`).join("");
}

const escape = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function showTimes(chunkMs, columns, overlayChunkMs) {
  const rows = [];
  for (let i = 0; i < chunkMs.length; i += columns) {
    const cells = chunkMs.slice(i, i + columns).map(({ coords, ms }) => `<td title="chunk ${coords.join(",")}">${ms.toFixed(3)}</td>`);
    rows.push(`<tr>${cells.join("")}</tr>`);
  }
  $("times").innerHTML = rows.join("");
  const mean = (list) => list.reduce((a, b) => a + b.ms, 0) / list.length;
  let summary = `${arrayPath}: ${mean(chunkMs).toFixed(3)} ms per chunk on average (${chunkMs.length} chunks timed, ${REPEAT} decodes each)`;
  if (overlayChunkMs.length) summary += `; ${overlayPath}: ${mean(overlayChunkMs).toFixed(3)} ms`;
  $("summary").textContent = summary;
}

// Slider positions 0..steps map onto [min, max]: one step per value for
// narrow integer ranges, 1000 steps otherwise.
function contrast(min, max, integer) {
  const steps = integer && max - min <= 65535 ? Math.max(1, max - min) : 1000;
  for (const id of ["lo", "hi"]) {
    $(id).max = String(steps);
    $(id).value = id === "lo" ? "0" : String(steps);
  }
  return (position) => {
    const p = Number(position);
    return p >= steps ? max : min + (p * (max - min)) / steps; // both ends exact
  };
}

function draw(result, mask, valueAt) {
  const canvas = $("canvas");
  const ctx = canvas.getContext("2d");
  const pixels = ctx.createImageData(canvas.width, canvas.height);
  const view = { lo: valueAt($("lo").value), hi: valueAt($("hi").value), overlay: mask !== null && $("overlay").checked };
  renderRGBA(result.values, mask, view, pixels.data);
  ctx.putImageData(pixels, 0, 0);
  $("lo-value").textContent = String(view.lo);
  $("hi-value").textContent = String(view.hi);
  Object.assign(state, view);
}

async function main() {
  document.querySelector(`input[name=where][value=${where}]`).checked = true;
  for (const input of document.querySelectorAll("input[name=where]")) {
    input.onchange = () => {
      params.set("decode", input.value);
      location.search = params.toString();
    };
  }
  if (!hasWasmSimd()) throw new Error("this browser lacks WebAssembly SIMD");
  await ready();
  const result = await read(arrayPath);
  const overlay = overlayPath ? await read(overlayPath) : null;
  if (overlay && (overlay.height !== result.height || overlay.width !== result.width || overlay.info.presented !== "bool")) {
    throw new Error(`overlay ${overlayPath} must be a bool array of ${result.height}x${result.width}`);
  }
  $("overlay").disabled = !overlay;
  $("overlay").checked = !!overlay;
  showInfo(result.info);
  showTimes(result.chunkMs, result.gridColumns, overlay?.chunkMs ?? []);

  const canvas = $("canvas");
  canvas.width = result.width;
  canvas.height = result.height;
  const [min, max] = valueRange(result.info, result.values);
  const integer = !/^float/.test(result.info.presented);
  const valueAt = contrast(min, max, integer);
  const mask = overlay ? overlay.values : null;
  for (const id of ["lo", "hi", "overlay"]) $(id).oninput = () => draw(result, mask, valueAt);
  draw(result, mask, valueAt);

  Object.assign(state, {
    info: result.info,
    range: [min, max],
    chunkMs: result.chunkMs.map((c) => c.ms),
    overlayChunkMs: overlay ? overlay.chunkMs.map((c) => c.ms) : [],
  });
  $("status").textContent = `decoded ${result.chunkMs.length} ${arrayPath} chunks` +
    (overlay ? ` and ${overlay.chunkMs.length} ${overlayPath} chunks` : "") +
    ` in ${where === "worker" ? "a Web Worker (its own wasm instance)" : "this page (zarrita + register())"}`;
  state.ready = true;
}

main().catch((error) => {
  state.error = `${error.code ?? error.name}: ${error.message}`;
  $("status").textContent = `error: ${state.error}`;
  $("status").className = "error";
  console.error(error);
});
