// Giving wasm memory back on the calling thread. WebAssembly memory only
// grows: one burst of reads leaves the instance at its peak for as long as
// the page lives. When the realm's instance has grown by more than
// RECYCLE_GROWTH_BYTES over a fresh one and then stays idle for
// `recycleIdleMs`, a fresh instance is made from the same compiled module
// (no download, no compile) and replaces it; the old memory goes to the
// garbage collector. Nothing breaks for what held the old one:
// - reads hold() the instance while their bands live in its memory; it is
//   never replaced while one is held (and a replacement made meanwhile is
//   dropped);
// - codecs bind again to the new instance on their next use
//   (instance.js), so codecs made before still decode after;
// - every other use looks the module up per call (wasm()).
// Pool workers do not replace theirs: an idle worker is ended instead
// (js/pool/read-pool.js).
import { detachAll } from "./instance.js";
import { freshInstance, replaceInstance, wasm } from "./load.js";

/** Default: an idle second before a grown instance is replaced. */
export const DEFAULT_RECYCLE_IDLE_MS = 1000;
/** Growth over a fresh instance below which nothing is replaced. */
export const RECYCLE_GROWTH_BYTES = 16 << 20;

let idleMs = DEFAULT_RECYCLE_IDLE_MS;
let enabled = true;
let holds = 0;
let lastUse = 0;
let timer;
let replacing = false;
let freshBytes; // a fresh instance's memory, measured at the first replacement
let recycles = 0;

/** The idle time before a grown instance is replaced (ms; Infinity: never). */
export function recycleIdleMs() {
  return idleMs;
}

export function setRecycleIdleMs(ms) {
  idleMs = ms;
  if (timer !== undefined) {
    clearTimeout(timer);
    timer = undefined;
  }
  touch();
}

/** Workers never replace their instance (read-pool.js ends them instead). */
export function disableRecycling() {
  enabled = false;
}

/** How many times the realm's instance was replaced. */
export function recycleCount() {
  return recycles;
}

/**
 * Holds the instance in use: it is not replaced until the returned
 * function is called (once).
 */
export function hold() {
  holds += 1;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holds -= 1;
    touch();
  };
}

/** The instance was used: the idle time starts again from now. */
export function touch() {
  lastUse = performance.now();
  if (!enabled || holds > 0 || timer !== undefined || !(idleMs < Infinity)) return;
  arm(idleMs);
}

function arm(ms) {
  timer = setTimeout(check, Math.max(0, ms));
  // Node: an idle timer never keeps a process alive.
  timer?.unref?.();
}

function grown(module) {
  const base = freshBytes ?? 0;
  return module.HEAPU8.length > Math.max(base, 16 << 20) + RECYCLE_GROWTH_BYTES;
}

async function check() {
  timer = undefined;
  if (holds > 0 || replacing || !(idleMs < Infinity)) return;
  const waited = performance.now() - lastUse;
  if (waited < idleMs) {
    arm(idleMs - waited);
    return;
  }
  let module;
  try {
    module = wasm();
  } catch {
    return;
  }
  // Not grown: nothing to give back, and no timer until the next use.
  if (!grown(module)) return;
  // Refused (a read began meanwhile): tried again once idle.
  if (!(await replace(false))) touch();
}

/**
 * Replaces the instance now where nothing holds it, grown or not.
 * Internal: tests race it against reads. Resolves to whether it did.
 */
export function recycleNow() {
  return replace(true);
}

// Makes a fresh instance and puts it in place, unless something holds the
// old one by then (a read that began meanwhile): then it is dropped.
async function replace(always) {
  let module;
  try {
    module = wasm();
  } catch {
    return false;
  }
  if (replacing || holds > 0 || (!always && !grown(module))) return false;
  replacing = true;
  let fresh;
  try {
    fresh = await freshInstance();
  } catch {
    fresh = undefined; // the old one kept: nothing lost
  } finally {
    replacing = false;
  }
  if (!fresh || holds > 0 || wasm() !== module) return false;
  freshBytes = fresh.HEAPU8.length;
  detachAll();
  replaceInstance(fresh);
  recycles += 1;
  return true;
}
