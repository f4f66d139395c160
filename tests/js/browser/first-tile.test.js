// Time to first tile in Chromium from a Vite production build: a viewer's
// first 512 x 512 tile (12-bit packbits, uint16), read with `{ into }`,
// from navigation start to the values being in `into`. The main entry
// (nothing set up: ready() finds the wasm itself) against the slim entry
// with the .wasm as an asset Vite emits (tests/apps/first-tile). Each load
// is a fresh browser context (an empty cache; the server also says
// no-store); the two entries alternate, FIRST_TILE_LOADS loads each (7).
// Values are checked against the pattern the chunk was packed from by the
// spec-literal reference.
//
// The medians and their ratio are printed. What is asserted is why they
// are alike: both pages compile the .wasm Vite emitted, and the main
// entry's page never fetches the inlined copy. On the shared two-core
// machines this runs on, one load's time varies by 2x or more with what
// else runs, more than the difference asked about (within 1.3x), so the
// ratio is asserted only where FIRST_TILE_MAX_RATIO asks (a quiet machine).
//
// The same builds give the sizes docs/where-it-runs.md reports of a Vite
// app (what a page downloads, the package's JavaScript among it, the
// pool's worker, the chunks over Vite's 500 kB warning): each is measured
// here and must be within 5% of the documented figure. The package's
// share of the app's chunk is that chunk less the one of the same page
// read by zarrita alone (src/zarrita-page.js, built, never loaded).
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { serve } from "../../../scripts/serve.mjs";
import { launchChromium, ROOT } from "../support/browser.js";
import { installPackedPackage } from "../support/consumer.js";
import { pixel } from "../support/image-store.js";
import { packBitsEncodeReference } from "../support/reference.js";

jest.setTimeout(600000);

const APP = join(ROOT, "tests/apps/first-tile");
const ENTRIES = ["default", "slim"];
const BASELINE = "zarrita"; // built for its size only
const SIZE_TOLERANCE = 0.05;
const LOADS = Number(process.env.FIRST_TILE_LOADS ?? 7);
const SHAPE = [1024, 1024];
const CHUNK = [512, 512];
const TILE_AT = [1, 0]; // the chunk the page reads: rows 512..1023, columns 0..511
const BITS = 12;

// The image as a Zarr v3 array of uint16, packbits last_bit 11; only the
// chunk the page reads is stored (the others are never asked for).
function writeStore(dir) {
  const image = join(dir, "image");
  mkdirSync(join(image, "c", String(TILE_AT[0])), { recursive: true });
  writeFileSync(join(dir, "zarr.json"), JSON.stringify({ zarr_format: 3, node_type: "group", attributes: {} }));
  writeFileSync(join(image, "zarr.json"), JSON.stringify({
    zarr_format: 3,
    node_type: "array",
    shape: SHAPE,
    data_type: "uint16",
    chunk_grid: { name: "regular", configuration: { chunk_shape: CHUNK } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "packbits", configuration: { last_bit: BITS - 1 } }],
  }));
  const values = expectedTile();
  const packed = packBitsEncodeReference({ containerBytes: 2, firstBit: 0, bits: BITS, isBool: false }, new Uint8Array(values.buffer));
  writeFileSync(join(image, "c", String(TILE_AT[0]), String(TILE_AT[1])), packed);
}

function expectedTile() {
  const values = new Uint16Array(CHUNK[0] * CHUNK[1]);
  for (let y = 0; y < CHUNK[0]; y++) {
    for (let x = 0; x < CHUNK[1]; x++) values[y * CHUNK[1] + x] = pixel(BITS, TILE_AT[0] * CHUNK[0] + y, TILE_AT[1] * CHUNK[1] + x);
  }
  return values;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let project;
let browser;
const sites = new Map(); // entry -> { out, server, url }

beforeAll(async () => {
  ({ project } = installPackedPackage("first-tile"));
  symlinkSync(join(ROOT, "node_modules", "zarrita"), join(project, "node_modules", "zarrita"));
  cpSync(join(APP, "src"), join(project, "src"), { recursive: true });
  for (const entry of ENTRIES) {
    const out = join(project, `out-${entry}`);
    execFileSync("node", [join(APP, "build.mjs"), entry, project, out], { stdio: "pipe" });
    writeStore(join(out, "data.zarr"));
    // Each build at the root of its own server, as it is deployed.
    sites.set(entry, { out, ...(await serve(out)) });
  }
  execFileSync("node", [join(APP, "build.mjs"), BASELINE, project, join(project, `out-${BASELINE}`)], { stdio: "pipe" });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const { server } of sites.values()) server.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

// One cold load of `entry`'s page (a new browser context: an empty cache):
// the time to the first tile, the values, what the page fetched, its
// console errors.
async function load(entry) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems = [];
    const requests = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
    page.on("request", (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`${sites.get(entry).url}/${entry}.html`);
    await page.waitForFunction(() => window.tile, null, { timeout: 60000 });
    const { ms, error } = await page.evaluate(() => ({ ms: window.tile.ms, error: window.tile.error }));
    // As base64 (Playwright passes a long array of numbers slowly).
    const base64 = error ? undefined : await page.evaluate(() => {
      const bytes = new Uint8Array(window.tile.values.buffer);
      let text = "";
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    });
    const values = base64 && new Uint16Array(new Uint8Array(Buffer.from(base64, "base64")).buffer);
    return { ms, error, values, requests, problems };
  } finally {
    await context.close();
  }
}

// The build's files that hold the package's inlined copy (a stretch of
// its base64 text; zarrita's compressors inline wasm of their own), as
// paths the page would request.
function inlinedCopies(out, dir = out) {
  const mark = readFileSync(join(project, "node_modules/zarr-codecs-wasm/dist/zarr-codecs-wasm.inline.mjs"), "latin1").slice(4000, 4100);
  return readdirSync(dir, { withFileTypes: true }).flatMap((f) => {
    const path = join(dir, f.name);
    if (f.isDirectory()) return inlinedCopies(out, path);
    return readFileSync(path, "latin1").includes(mark) ? [`/${relative(out, path)}`] : [];
  });
}

// The index of the first value that differs from `expected`, or -1.
function firstDifference(values, expected) {
  if (values.length !== expected.length) return Math.min(values.length, expected.length);
  return values.findIndex((v, i) => v !== expected[i]);
}

test("first tile: the main entry compiles the streamed .wasm as the slim entry does, never fetching the inlined copy; medians printed", async () => {
  const expected = expectedTile();
  const times = { default: [], slim: [] };
  const fetched = { default: new Set(), slim: new Set() };
  // Alternated, so that a burst of load on the machine hits both alike.
  for (let i = 0; i < LOADS; i++) {
    for (const entry of ENTRIES) {
      const result = await load(entry);
      expect({ entry, error: result.error, problems: result.problems }).toEqual({ entry, error: undefined, problems: [] });
      expect({ entry, firstDifference: firstDifference(result.values, expected) }).toEqual({ entry, firstDifference: -1 });
      times[entry].push(result.ms);
      for (const path of result.requests) fetched[entry].add(path);
    }
  }
  const m = { default: median(times.default), slim: median(times.slim) };
  const spread = (xs) => `min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}: ${xs.map((x) => x.toFixed(0)).join(" ")}`;
  process.stdout.write(
    `first 512 x 512 tile, Vite build, Chromium, ${LOADS} cold loads each, ms from navigation start:\n` +
      `  default (main entry) median ${m.default.toFixed(0)}  (${spread(times.default)})\n` +
      `  slim + ?url .wasm    median ${m.slim.toFixed(0)}  (${spread(times.slim)})\n` +
      `  ratio of medians     ${(m.default / m.slim).toFixed(2)}\n`,
  );
  // What makes the two alike: both pages compile the one .wasm Vite
  // emitted while it streams, and the main entry's page never fetches
  // the file holding the inlined copy (which Vite emits too, for where
  // there is no .wasm).
  for (const entry of ENTRIES) {
    const wasm = [...fetched[entry]].filter((p) => p.endsWith(".wasm"));
    expect({ entry, wasm }).toEqual({ entry, wasm: [expect.stringMatching(/^\/assets\/zarr-codecs-wasm-[\w-]+\.wasm$/)] });
  }
  const copies = inlinedCopies(sites.get("default").out);
  expect(copies).toHaveLength(1);
  expect([...fetched.default].filter((p) => copies.includes(p))).toEqual([]);
  // The ratio itself is asserted only where asked (a quiet machine): on
  // a loaded shared one the loads' spread exceeds the difference.
  const limit = Number(process.env.FIRST_TILE_MAX_RATIO);
  if (limit > 0) expect(m.default / m.slim).toBeLessThanOrEqual(limit);
});

// Each file a build emitted, by its name with Vite's content hash written
// <hash> (as the docs name them): bytes, and bytes after GNU gzip -9.
function emitted(out, dir = out) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((f) => {
    const path = join(dir, f.name);
    if (f.isDirectory()) return emitted(out, path);
    const bytes = readFileSync(path).length;
    const gzip = execFileSync("gzip", ["-9", "-c", path], { maxBuffer: 1 << 24 }).length;
    return [[f.name.replace(/-[\w-]{8}(\.\w+)$/, "-<hash>$1"), { bytes, gzip }]];
  });
}

// The rows of docs/where-it-runs.md's tables that name a file of a Vite
// build (`name-<hash>.js`) with its size and gzip size in kB (1,000
// bytes). A row that says "zarrita alone (n kB, m kB gzip)" gives the
// file less the zarrita-alone page's chunk, and that chunk's sizes.
function documentedSizes() {
  const doc = readFileSync(join(ROOT, "docs/where-it-runs.md"), "utf8");
  return doc.split("\n").filter((line) => line.startsWith("| ")).flatMap((line) => {
    const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
    const file = cells[0].match(/`([\w.-]+-<hash>\.(?:js|wasm))`/)?.[1];
    if (!file) return [];
    const kB = (text) => Number(text.replace(/,/g, "")) * 1000;
    const [bytes, gzip] = cells.slice(1).map((cell) => cell.match(/^([\d,]+\.\d+) kB$/)?.[1]).filter(Boolean).map(kB);
    const baseline = cells[0].match(/zarrita alone \(([\d,]+\.\d+) kB, ([\d,]+\.\d+) kB gzip\)/);
    return [
      { row: cells[0], file, less: baseline !== null, bytes, gzip },
      ...(baseline ? [{ row: "zarrita alone's chunk", file: `${BASELINE}-<hash>.js`, less: false, bytes: kB(baseline[1]), gzip: kB(baseline[2]) }] : []),
    ];
  });
}

test(`the sizes of a Vite build docs/where-it-runs.md gives are this build's, within ${SIZE_TOLERANCE * 100}%`, () => {
  const sizes = new Map([...ENTRIES, BASELINE].flatMap((entry) => emitted(join(project, `out-${entry}`))));
  const baseline = sizes.get(`${BASELINE}-<hash>.js`);
  const rows = documentedSizes();
  // What a page fetches (its chunk, the package's share of it, the glue,
  // the .wasm), the slim entry's chunk, the pool's worker, the inlined
  // copy; and the chunks over Vite's warning (the inlined copy again).
  expect(rows.map((r) => r.file + (r.less ? " less zarrita" : "")).sort()).toEqual([
    "blosc-<hash>.js", "default-<hash>.js", "default-<hash>.js less zarrita", "read-worker-<hash>.js", "slim-<hash>.js",
    "zarr-codecs-wasm-<hash>.js", "zarr-codecs-wasm-<hash>.wasm", "zarr-codecs-wasm.inline-<hash>.js",
    "zarr-codecs-wasm.inline-<hash>.js", "zarrita-<hash>.js", "zstd-<hash>.js",
  ]);
  const kB = (n) => `${(n / 1000).toFixed(2)} kB`;
  const measured = rows.map(({ row, file, less, bytes, gzip }) => {
    const size = sizes.get(file);
    expect({ file, emitted: size !== undefined }).toEqual({ file, emitted: true });
    const got = less ? { bytes: size.bytes - baseline.bytes, gzip: size.gzip - baseline.gzip } : size;
    return { row, documented: { bytes, gzip }, got };
  });
  process.stdout.write(
    `sizes of the first-tile Vite build (kB: 1,000 bytes; gzip -9), zarrita alone's chunk ${kB(baseline.bytes)}, ${kB(baseline.gzip)} gzip:\n` +
      measured.map(({ row, got }) => `  ${kB(got.bytes).padStart(10)} ${kB(got.gzip).padStart(10)}  ${row}\n`).join(""),
  );
  for (const { row, documented, got } of measured) {
    for (const what of ["bytes", "gzip"]) {
      const off = Math.abs(documented[what] - got[what]) / got[what];
      expect({ row, what, documented: kB(documented[what]), measured: kB(got[what]), within: off <= SIZE_TOLERANCE })
        .toEqual({ row, what, documented: kB(documented[what]), measured: kB(got[what]), within: true });
    }
  }
});
