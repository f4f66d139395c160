// The viewer in Chromium for the browser tests: opening it, reading its
// canvas, moving its controls, and the canvas it should show, computed
// from source values and docs/viewer.md's rules alone (never from a
// decode or from the viewer's own modules).
import { afterAll, beforeAll } from "@jest/globals";
import { buildViewerWorker } from "../../../scripts/build-viewer-worker.mjs";
import { makeViewerStore } from "../../../scripts/make-viewer-store.mjs";
import { launchChromium, openPage, serveRepository } from "./browser.js";

// docs/viewer.md: the colours of values the window cannot place.
export const DOCUMENTED = { nan: [255, 0, 255], posInf: [255, 170, 0], negInf: [0, 150, 255] };

/**
 * A test file's viewer: the sample store and the worker bundle made, the
 * repository served and Chromium launched before its tests, both closed
 * after. Returns { browser, url } (filled in by then).
 */
export function viewerSession() {
  const session = {};
  let server;
  beforeAll(async () => {
    await makeViewerStore();
    await buildViewerWorker();
    ({ server, url: session.url } = await serveRepository());
    session.browser = await launchChromium();
  });
  afterAll(async () => {
    await session.browser?.close();
    server?.close();
  });
  return session;
}

/** Opens the viewer with `query` and waits until it has drawn or failed. */
export async function openViewer(browser, url, query, viewport) {
  const { page, problems } = await openPage(browser, viewport);
  await page.goto(`${url}/examples/viewer/?${query}`);
  await settled(page);
  return { page, problems, state: await page.evaluate(() => window.viewerState) };
}

/** Waits for the current load to finish, drawn or failed. */
export function settled(page) {
  return page.waitForFunction(() => window.viewerState?.ready || window.viewerState?.error);
}

/** Runs `action` (a click, a step back in history) and waits for the load it starts to finish. */
export async function afterNextLoad(page, action) {
  const before = await page.evaluate(() => window.viewerState.loads);
  await action();
  await page.waitForFunction((n) => window.viewerState.loads > n && (window.viewerState.ready || window.viewerState.error), before);
}

// Moves a control as a person would.
export async function setControls(page, values) {
  await page.evaluate((values) => {
    for (const [id, value] of Object.entries(values)) {
      const input = document.getElementById(id);
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
      input.dispatchEvent(new Event(input.tagName === "SELECT" ? "change" : "input"));
    }
  }, values);
}

/** Clicks a radio button of group `name` as a person would. */
export async function choose(page, name, value) {
  await page.check(`input[name=${name}][value=${value}]`);
}

export async function canvasRGBA(page) {
  const base64 = await page.evaluate(() => {
    const canvas = document.getElementById("canvas");
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    let s = "";
    for (let i = 0; i < data.length; i += 8192) s += String.fromCharCode(...data.subarray(i, i + 8192));
    return btoa(s);
  });
  return new Uint8Array(Buffer.from(base64, "base64"));
}

export function firstDifference(got, want, width) {
  if (got.length !== want.length) return `${got.length / 4} pixels drawn, ${want.length / 4} expected`;
  for (let i = 0; i < want.length; i++) {
    if (got[i] !== want[i]) {
      const pixel = i >> 2;
      return `pixel (${Math.floor(pixel / width)}, ${pixel % width}) channel ${i & 3}: ${got[i]} != ${want[i]}`;
    }
  }
  return null;
}

// docs/viewer.md's symmetric log: sign(v) ln(1 + |v|/C), and ln|v| - ln C
// where |v|/C overflows.
function symlog(v, c) {
  if (v === 0) return 0;
  const r = Math.abs(v) / c;
  return Math.sign(v) * (Number.isFinite(r) ? Math.log1p(r) : Math.log(Math.abs(v)) - Math.log(c));
}

/** symlog's default C: the smallest non-zero finite magnitude. */
export function smallestNonZero(values) {
  let c = Infinity;
  for (const v of values) if (Number.isFinite(v) && v !== 0 && Math.abs(v) < c) c = Math.abs(v);
  return c;
}

/** The finite minimum and maximum (the window "minmax"). */
export function finiteRange(values) {
  const finite = Array.from(values, Number).filter(Number.isFinite);
  return [finite.reduce((a, b) => Math.min(a, b)), finite.reduce((a, b) => Math.max(a, b))];
}

// docs/viewer.md's percentile: numpy's default, linear interpolation at
// position p / 100 * (n - 1) of the ascending values.
function percentileOf(sorted, p) {
  const at = (p / 100) * (sorted.length - 1);
  const i = Math.floor(at);
  const t = at - i;
  if (t === 0 || i + 1 >= sorted.length) return sorted[i];
  const [a, b] = [sorted[i], sorted[i + 1]];
  return t < 0.5 ? a + (b - a) * t : b - (b - a) * (1 - t);
}

/**
 * docs/viewer.md's automatic window of a slice whose type is not narrow:
 * the 0.5th and 99.5th percentiles of the finite values; with fewer than
 * 200 of them, each pulled in to Tukey's far-out fence (Q1 - 3 IQR, Q3 +
 * 3 IQR); the finite extent where that leaves one value; whole numbers,
 * widened, for integer types.
 */
export function autoWindow(values, { integer = false } = {}) {
  // Ascending, -0 before 0 (as a Float64Array sorts).
  const sorted = Array.from(values, Number).filter(Number.isFinite).sort((a, b) => a - b || Object.is(b, -0) - Object.is(a, -0));
  let lo = percentileOf(sorted, 0.5);
  let hi = percentileOf(sorted, 99.5);
  if (sorted.length < 200) {
    const [q1, q3] = [percentileOf(sorted, 25), percentileOf(sorted, 75)];
    lo = Math.max(lo, q1 - 3 * (q3 - q1));
    hi = Math.min(hi, q3 + 3 * (q3 - q1));
  }
  if (!(lo < hi)) [lo, hi] = [sorted[0], sorted.at(-1)];
  return integer ? [Math.floor(lo), Math.ceil(hi)] : [lo, hi];
}

/**
 * The expected canvas: the window [lo, hi] mapped to 0..255 gray, linear or
 * symmetric log (scale "symlog", C = c), clipped; NaN and infinities in
 * their documented colours; masked pixels half-way to red.
 */
export function expectedRGBA(values, { lo, hi, overlay = false, scale = "linear", c = 1 }, mask = null) {
  const t = (v) => (scale === "symlog" ? symlog(v, c) : v);
  const out = new Uint8Array(values.length * 4);
  for (let i = 0; i < values.length; i++) {
    const v = Number(values[i]);
    let rgb;
    if (Number.isNaN(v)) rgb = DOCUMENTED.nan;
    else if (v === Infinity) rgb = DOCUMENTED.posInf;
    else if (v === -Infinity) rgb = DOCUMENTED.negInf;
    else {
      const g = Math.min(255, Math.max(0, Math.round((t(v) - t(lo)) * (255 / (t(hi) - t(lo))))));
      const red = overlay && mask[i];
      rgb = red ? [Math.round((g + 255) / 2), Math.round(g / 2), Math.round(g / 2)] : [g, g, g];
    }
    out.set([...rgb, 255], 4 * i);
  }
  return out;
}
