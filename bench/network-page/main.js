// The page bench/network-browser.mjs builds with Vite and drives in
// Chromium: zarrita 0.7.5 alone, zarrita + withRangeCoalescing, read() and
// read() on withDataTypes(FetchStore), which keeps the array's zarr.json,
// each on a fresh FetchStore and freshly opened array per round, reading
// the store from the loopback network server (another origin, CORS) under
// the browser's own limit of connections per host. The driver resets the
// server's log between open() and run(), so the open's requests are not
// counted; run() times the steps and checks values against the image.
import * as zarr from "zarrita";
import * as pkg from "../../js/index.js";
import { checkSample } from "../network-cases.mjs";

const { read, ready, register } = pkg;
// Another change adds the chunk cache; until it is there, its row says so
// (read through Reflect so the bundler does not warn of a missing export).
const createChunkCache = Reflect.get(pkg, "createChunkCache");

let expected;
let side;
let storeUrl;
// FetchStore's options: with --no-store, every request bypasses the HTTP
// cache ({ cache: "no-store" }).
let storeOptions = {};
const fetchStore = (url) => new zarr.FetchStore(url, storeOptions);
let plainCodecs;
let packageCodecs;
// The array (and chunk cache) open() made for the next run().
let current;

const useCodecs = (codecs) => {
  zarr.registry.clear();
  for (const [k, v] of codecs) zarr.registry.set(k, v);
};
const toSlices = (selection) => (selection ? selection.map(([a, b]) => zarr.slice(a, b)) : null);

const readers = {
  zarrita: { codecs: () => plainCodecs, store: (url) => fetchStore(url), get: (arr, sel) => zarr.get(arr, sel) },
  coalesce: { codecs: () => plainCodecs, store: (url) => zarr.withRangeCoalescing(fetchStore(url)), get: (arr, sel) => zarr.get(arr, sel) },
  read: { codecs: () => packageCodecs, store: (url) => fetchStore(url), get: (arr, sel, cache) => read(arr, sel, cache ? { cache } : {}) },
  // The package's withDataTypes keeps the zarr.json it gave zarrita at
  // the open: read's own fetch of it costs no round trip.
  withDataTypes: { codecs: () => packageCodecs, store: (url) => pkg.withDataTypes(fetchStore(url)), get: (arr, sel, cache) => read(arr, sel, cache ? { cache } : {}) },
};

let checkMs = 0;
function check(got, selection) {
  const t = performance.now();
  checkSample(got, selection, expected, side);
  checkMs += performance.now() - t;
}

async function steps(name, arr, list, cache) {
  const reader = readers[name];
  for (const step of list) {
    const results = await Promise.all(step.map((sel) => reader.get(arr, toSlices(sel), cache)));
    step.forEach((sel, i) => check(results[i], sel));
  }
}

window.bench = {
  async setup(url, noStore) {
    storeUrl = url;
    if (noStore) storeOptions = { overrides: { cache: "no-store" } };
    const response = await fetch("./expected.u16");
    expected = new Uint16Array(await response.arrayBuffer());
    side = Math.sqrt(expected.length);
    plainCodecs = new Map(zarr.registry);
    await ready();
    register(zarr.registry);
    packageCodecs = new Map(zarr.registry);
    return { side, cache: typeof createChunkCache === "function", userAgent: navigator.userAgent };
  },
  /** A fresh store and opened array for `name`, and the untimed warm-up steps read on it. */
  async open(name, arrayName, c) {
    const reader = readers[name];
    useCodecs(reader.codecs());
    const arr = await zarr.open.v3(zarr.root(reader.store(storeUrl)).resolve(arrayName), { kind: "array" });
    const cache = c.cache && (name === "read" || name === "withDataTypes") ? createChunkCache({ maxBytes: 256 << 20 }) : undefined;
    current = { name, arr, cache };
    if (c.warm) await steps(name, arr, c.warm, cache);
  },
  /** The case's steps on what open() made: ms, the value checks' time taken off. */
  async run(c) {
    const { name, arr, cache } = current;
    checkMs = 0;
    const t0 = performance.now();
    await steps(name, arr, c.steps, cache);
    const ms = performance.now() - t0 - checkMs;
    current = undefined;
    return ms;
  },
};
window.loaded = true;
