// The page bench/session-browser.mjs builds with Vite and drives in
// Chromium: the scenarios of bench/session-cases.mjs (prefetch, fling,
// levels, each also alone) read by the readers of bench/session.mjs, as an
// app bundles zarrita 0.7.5 and the package: zarrita alone, zarrita +
// withRangeCoalescing, read() with a chunk cache, and, where the package
// exports them, read() with a createReadScheduler and zarr.get on
// withScheduler stores. open() makes a fresh store, cache and scheduler
// and opens the run's arrays (the driver resets the server's log after
// it, so the opens are not counted); run() runs the scenario, checks every
// read's values against the image, and returns the run without values.
// Unhandled rejections are counted (and kept from the console).
import * as zarr from "zarrita";
import * as pkg from "../../js/index.js";
import { checkSample } from "../network-cases.mjs";
import { alone, arraysOf, checkRun, runScenario, sessionScenarios } from "../session-cases.mjs";

const { read, ready, register } = pkg;
// Read through Reflect so the bundler does not warn of exports that are
// not there yet (the scheduler and the store wrapper of issue 41).
const createChunkCache = Reflect.get(pkg, "createChunkCache");
const createReadScheduler = Reflect.get(pkg, "createReadScheduler");
const withScheduler = Reflect.get(pkg, "withScheduler");
const hasScheduler = typeof createReadScheduler === "function";
const hasWrapper = hasScheduler && typeof withScheduler === "function";

let images;
let storeUrl;
let storeOptions = {};
let plainCodecs;
let packageCodecs;
let scenarios;
let maxRequests = 6;
// What open() made for the next run().
let current;

let unhandled = 0;
const unhandledKinds = new Map();
window.addEventListener("unhandledrejection", (event) => {
  unhandled++;
  const reason = event.reason;
  const kind = `${reason?.name ?? typeof reason}: ${String(reason?.message ?? reason).slice(0, 80)}`;
  unhandledKinds.set(kind, (unhandledKinds.get(kind) ?? 0) + 1);
  event.preventDefault();
});

const useCodecs = (codecs) => {
  zarr.registry.clear();
  for (const [k, v] of codecs) zarr.registry.set(k, v);
};
const toSlices = (selection) => (selection ? selection.map(([a, b]) => zarr.slice(a, b)) : null);
const fetchStore = () => new zarr.FetchStore(storeUrl, storeOptions);
const openOn = (store, array) => zarr.open.v3(zarr.root(store).resolve(array), { kind: "array" });
const newCache = () => createChunkCache({ maxBytes: 256 << 20 });

const readers = {
  zarrita: {
    codecs: () => plainCodecs,
    session() {
      const store = fetchStore();
      return { open: (array) => openOn(store, array), get: (arr, sel, { signal }) => zarr.get(arr, toSlices(sel), { signal }) };
    },
  },
  coalesce: {
    codecs: () => plainCodecs,
    session() {
      const store = zarr.withRangeCoalescing(fetchStore());
      return { open: (array) => openOn(store, array), get: (arr, sel, { signal }) => zarr.get(arr, toSlices(sel), { signal }) };
    },
  },
  read: {
    codecs: () => packageCodecs,
    session() {
      const store = fetchStore();
      const cache = newCache();
      return { open: (array) => openOn(store, array), get: (arr, sel, { signal }) => read(arr, toSlices(sel), { cache, signal }) };
    },
  },
  scheduler: {
    codecs: () => packageCodecs,
    session() {
      const store = fetchStore();
      const cache = newCache();
      const scheduler = createReadScheduler({ maxRequests });
      return {
        scheduler,
        open: (array) => openOn(store, array),
        get: (arr, sel, { signal, priority }) => read(arr, toSlices(sel), { cache, signal, scheduler, priority }),
      };
    },
  },
  wrapper: {
    codecs: () => packageCodecs,
    perPriority: true,
    session() {
      const base = fetchStore();
      const scheduler = createReadScheduler({ maxRequests });
      return {
        scheduler,
        open: (array, priority) => openOn(withScheduler(base, scheduler, { priority }), array),
        get: (arr, sel, { signal }) => zarr.get(arr, toSlices(sel), { signal }),
      };
    },
  },
};

/** A run as plain data: no values, errors as name and message. */
function plainRun(run) {
  return {
    ...run,
    groups: run.groups.map((g) => ({
      ...g,
      outcomes: g.outcomes.map((o) => ({ ok: o.ok, atMs: o.atMs, error: o.ok ? undefined : { name: o.error?.name, message: String(o.error?.message ?? o.error) } })),
    })),
  };
}

window.bench = {
  async setup(url, { noStore = false, maxRequests: cap = 6 } = {}) {
    storeUrl = url;
    maxRequests = cap;
    if (noStore) storeOptions = { overrides: { cache: "no-store" } };
    const expected = new Uint16Array(await (await fetch("./expected.u16")).arrayBuffer());
    const side = Math.sqrt(expected.length);
    const q = side / 4;
    const quarter = new Uint16Array(q * q);
    for (let r = 0; r < q; r++) for (let c = 0; c < q; c++) quarter[r * q + c] = expected[4 * r * side + 4 * c];
    images = { sharded: [expected, side], quarter: [quarter, q] };
    scenarios = sessionScenarios(side);
    plainCodecs = new Map(zarr.registry);
    await ready();
    register(zarr.registry);
    packageCodecs = new Map(zarr.registry);
    return { side, hasScheduler, hasWrapper, userAgent: navigator.userAgent };
  },
  /** A fresh session of `name` with the arrays of the scenario (or its "alone") opened. */
  async open(name, scenarioName, variant) {
    const reader = readers[name];
    useCodecs(reader.codecs());
    const base = scenarios.find((s) => s.name === scenarioName);
    const scenario = variant === "alone" ? alone(base) : base;
    const session = reader.session();
    const arrays = new Map();
    for (const { array, priority } of arraysOf(scenario)) {
      const key = reader.perPriority ? `${array}@${priority}` : array;
      if (!arrays.has(key)) arrays.set(key, await session.open(array, priority));
    }
    current = { reader, scenario, session, arrays };
  },
  /** The scenario on what open() made: the run (its clock is this page's), values checked. */
  async run(timeoutMs) {
    const { reader, scenario, session, arrays } = current;
    current = undefined;
    const get = (array, sel, options) => session.get(arrays.get(reader.perPriority ? `${array}@${options.priority}` : array), sel, options);
    const run = await runScenario(scenario, get, { timeoutMs });
    let checked;
    try {
      checked = checkRun(run, (array, sel, got) => checkSample(got, sel, ...images[array]));
    } catch (error) {
      return { error: error.message };
    }
    return { run: plainRun(run), checked, stats: session.scheduler?.stats?.() };
  },
  /** Unhandled rejections so far, and their kinds. */
  unhandled: () => ({ count: unhandled, kinds: [...unhandledKinds] }),
};
window.loaded = true;
