// The viewer: opens the store over HTTP with zarrita's FetchStore, decodes
// every chunk in this page (zarrita with register()) or in a Web Worker (its
// own wasm instance), and draws the image with the mask overlaid.
//   ?decode=main|worker   where to decode (default main)
//   ?store=URL            the store (default ./data.zarr/)
import * as zarr from "zarrita";
import { hasWasmSimd, ready, register } from "zarr-codecs-wasm";
import { renderRGBA } from "./render.js";

register(zarr.registry);

const params = new URLSearchParams(location.search);
const where = params.get("decode") === "worker" ? "worker" : "main";
const storeUrl = new URL(params.get("store") ?? "./data.zarr/", location.href).href;
const $ = (id) => document.getElementById(id);

// For people and for the browser test alike.
const state = { ready: false, where, error: null, chunkMs: { image: [], mask: [] } };
window.viewerState = state;

// Chunk bytes are fetched once up front, so the time per chunk is decoding.
// Browsers round performance.now() to 0.1 ms here (no cross-origin
// isolation), so each chunk is decoded REPEAT times after a warm-up and the
// mean is shown.
const REPEAT = 10;
const fetchStore = new zarr.FetchStore(storeUrl);
const bytes = new Map();
const store = {
  async get(key, options) {
    if (!bytes.has(key)) bytes.set(key, await fetchStore.get(key, options));
    return bytes.get(key);
  },
};

function chunkKeys(meta, name) {
  const [h, w] = meta.shape;
  const [ch, cw] = meta.chunk_grid.configuration.chunk_shape;
  const keys = [];
  for (let r = 0; r < h / ch; r++) {
    for (let c = 0; c < w / cw; c++) keys.push({ coords: [r, c], key: `/${name}/c/${r}/${c}` });
  }
  return keys;
}

// In the page: zarrita's own pipeline, with the registered wasm codecs.
async function decodeInPage(name) {
  const arr = await zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" });
  const out = [];
  for (const { coords } of chunkKeys(await metadata(name), name)) {
    const { data } = await arr.getChunk(coords);
    const t0 = performance.now();
    for (let i = 0; i < REPEAT; i++) await arr.getChunk(coords);
    const ms = (performance.now() - t0) / REPEAT;
    out.push({ coords, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ms });
  }
  return out;
}

// In a worker: the raw chunk bytes go over, the values come back.
let worker;
let nextId = 0;
const pending = new Map();
function decodeInWorker(job) {
  if (!worker) {
    worker = new Worker(new URL("./decode-worker.js", import.meta.url), { type: "module" });
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
    worker.postMessage({ ...job, id }, [job.bytes]);
  });
}

async function decodeWithWorker(name) {
  const meta = await metadata(name);
  const codec = meta.codecs[0];
  const out = [];
  for (const { coords, key } of chunkKeys(meta, name)) {
    const raw = await store.get(key);
    const { data, ms } = await decodeInWorker({
      bytes: raw.slice().buffer,
      configuration: codec.configuration,
      dataType: meta.data_type,
      shape: meta.chunk_grid.configuration.chunk_shape,
      repeat: REPEAT,
    });
    out.push({ coords, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), ms });
  }
  return out;
}

const metadataCache = new Map();
async function metadata(name) {
  if (!metadataCache.has(name)) {
    const raw = await store.get(`/${name}/zarr.json`);
    metadataCache.set(name, JSON.parse(new TextDecoder().decode(raw)));
  }
  return metadataCache.get(name);
}

// Chunks into one C-order array of `bytesPerValue`-byte values.
function assemble(meta, chunks, bytesPerValue) {
  const [h, w] = meta.shape;
  const [ch, cw] = meta.chunk_grid.configuration.chunk_shape;
  const out = new Uint8Array(h * w * bytesPerValue);
  for (const { coords: [r, c], data } of chunks) {
    for (let y = 0; y < ch; y++) {
      const src = data.subarray(y * cw * bytesPerValue, (y + 1) * cw * bytesPerValue);
      out.set(src, ((r * ch + y) * w + c * cw) * bytesPerValue);
    }
  }
  return out;
}

function showTimes(imageChunks, maskChunks, columns) {
  const rows = [];
  for (let i = 0; i < imageChunks.length; i += columns) {
    const cells = imageChunks.slice(i, i + columns).map((chunk, j) =>
      `<td title="chunk ${chunk.coords.join(",")}: image / mask">${chunk.ms.toFixed(2)} / ${maskChunks[i + j].ms.toFixed(2)}</td>`);
    rows.push(`<tr>${cells.join("")}</tr>`);
  }
  $("times").innerHTML = rows.join("");
  const mean = (list) => list.reduce((a, b) => a + b.ms, 0) / list.length;
  $("summary").textContent = `image ${mean(imageChunks).toFixed(3)} ms, mask ${mean(maskChunks).toFixed(3)} ms per chunk on average (image / mask in each cell)`;
}

function draw(image, mask) {
  const canvas = $("canvas");
  const ctx = canvas.getContext("2d");
  const pixels = ctx.createImageData(canvas.width, canvas.height);
  const view = { lo: Number($("lo").value), hi: Number($("hi").value), overlay: $("overlay").checked };
  renderRGBA(image, mask, view, pixels.data);
  ctx.putImageData(pixels, 0, 0);
  $("lo-value").textContent = view.lo;
  $("hi-value").textContent = view.hi;
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
  const [imageMeta, maskMeta] = await Promise.all([metadata("image"), metadata("mask")]);
  await Promise.all([...chunkKeys(imageMeta, "image"), ...chunkKeys(maskMeta, "mask")].map(({ key }) => store.get(key)));

  const decode = where === "worker" ? decodeWithWorker : decodeInPage;
  const imageChunks = await decode("image");
  const maskChunks = await decode("mask");
  const image = new Uint16Array(assemble(imageMeta, imageChunks, 2).buffer);
  const mask = assemble(maskMeta, maskChunks, 1);
  showTimes(imageChunks, maskChunks, imageMeta.shape[1] / imageMeta.chunk_grid.configuration.chunk_shape[1]);
  for (const id of ["lo", "hi", "overlay"]) $(id).oninput = () => draw(image, mask);
  draw(image, mask);

  state.chunkMs = { image: imageChunks.map((c) => c.ms), mask: maskChunks.map((c) => c.ms) };
  $("status").textContent = `decoded ${imageChunks.length} image and ${maskChunks.length} mask chunks ` +
    `in ${where === "worker" ? "a Web Worker (its own wasm instance)" : "this page (zarrita + register())"}`;
  state.ready = true;
}

main().catch((error) => {
  state.error = `${error.code ?? error.name}: ${error.message}`;
  $("status").textContent = `error: ${state.error}`;
  $("status").className = "error";
  console.error(error);
});
