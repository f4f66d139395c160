// The served sample store read from another origin, as a user's own app
// (its dev server on another port) reads it: scripts/serve.mjs's server
// (what `npm run viewer` and `node scripts/serve.mjs <folder>` run) holds
// the store; a second server without CORS serves the page and its modules.
// Chromium reads through zarrita's FetchStore: plain GETs, the byte ranges
// of a sharded array (the suffix range of its index is not a "simple"
// request: the browser sends a preflight first), and requests with a
// header of the app's own (every one preflighted). Values are checked
// against the sample generator's formulas and the fixture's expected.json;
// the same page against a server without CORS fails, so the headers are
// what makes it work.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarr from "zarrita";
import { register } from "../../../js/index.js";
import { makeImage, SHAPE, writeSampleStore } from "../../../examples/sample-store.mjs";
import { serve } from "../../../scripts/serve.mjs";
import { launchChromium, openPage, ROOT } from "../support/browser.js";

jest.setTimeout(120000);

const EXPECTED = JSON.parse(readFileSync(join(ROOT, "tests/fixtures/v3-data-types.zarr/expected.json"), "utf8"));

// The app: an import map to the installed files (as the viewer has it), and
// a function that reads the store at `base` and returns what it read.
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>an app on another origin</title>
<link rel="icon" href="data:,">
<script type="importmap">
{ "imports": {
  "zarrita": "/node_modules/zarrita/dist/src/index.js",
  "@zarrita/storage/fetch": "/node_modules/@zarrita/storage/dist/src/fetch.js",
  "numcodecs/blosc": "/node_modules/numcodecs/dist/blosc.js",
  "numcodecs/lz4": "/node_modules/numcodecs/dist/lz4.js",
  "numcodecs/zstd": "/node_modules/numcodecs/dist/zstd.js",
  "zarr-codecs-wasm": "/js/index.js"
} }
</script>
<script type="module">
  import * as zarr from "zarrita";
  import { register, withDataTypes } from "zarr-codecs-wasm";
  register(zarr.registry);
  window.read = async (base, options) => {
    const open = (store, path) => zarr.open.v3(zarr.root(store).resolve(path), { kind: "array" });
    const sample = withDataTypes(new zarr.FetchStore(base + "/data.zarr", options));
    const image = await zarr.get(await open(sample, "image"), [zarr.slice(0, 130), zarr.slice(0, 130)]);
    // A sharded array: each inner chunk by range, the index by a suffix range.
    const fixture = withDataTypes(new zarr.FetchStore(base + "/fixture.zarr", { ...options, useSuffixRequest: true }));
    const sharded = await zarr.get(await open(fixture, "sharded_int4"));
    return { image: Array.from(image.data), imageShape: image.shape, sharded: Array.from(sharded.data) };
  };
  window.loaded = true;
</script>`;

let scratch;
let store; // the store server, as scripts/serve.mjs runs it
let bare; // the same folder without CORS
let app;
let browser;
const methods = [];

beforeAll(async () => {
  register(zarr.registry);
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-cors-"));
  const stores = join(scratch, "stores");
  mkdirSync(stores);
  await writeSampleStore(new FileSystemStore(join(stores, "data.zarr")));
  symlinkSync(join(ROOT, "tests/fixtures/v3-data-types.zarr"), join(stores, "fixture.zarr"));
  store = await serve(stores);
  store.server.on("request", (req) => methods.push(req.method));
  bare = await serve(stores, { cors: false });
  // The app's own server: its page, and the installed files its modules come from.
  const site = join(scratch, "app");
  mkdirSync(site);
  writeFileSync(join(site, "app.html"), PAGE);
  for (const dir of ["node_modules", "js", "dist"]) symlinkSync(join(ROOT, dir), join(site, dir));
  app = await serve(site, { cors: false });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const s of [store, bare, app]) s?.server.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function openApp() {
  const { page, problems } = await openPage(browser);
  await page.goto(`${app.url}/app.html`);
  await page.waitForFunction(() => window.loaded, null, { timeout: 30000 });
  return { page, problems };
}

// The image's top-left 130 x 130 (four chunks), from the sample generator.
function expectedImage() {
  const full = makeImage();
  const out = [];
  for (let y = 0; y < 130; y++) for (let x = 0; x < 130; x++) out.push(full[y * SHAPE[1] + x]);
  return out;
}

test("the two servers are two origins", () => {
  expect(new URL(store.url).origin).not.toBe(new URL(app.url).origin);
});

test.each([
  ["plain requests (GET, HEAD, ranges)", undefined],
  ["a header of the app's own (every request preflighted)", { overrides: { headers: { "x-app": "viewer" } } }],
])("a page on another origin reads the sample store and a sharded array: %s", async (_, options) => {
  methods.length = 0;
  const { page, problems } = await openApp();
  const got = await page.evaluate(({ base, options }) => window.read(base, options), { base: store.url, options });
  expect(got.imageShape).toEqual([130, 130]);
  expect(got.image).toEqual(expectedImage());
  expect(got.sharded).toEqual(EXPECTED.sharded_int4.codes);
  // The suffix range of the shard index, and here every request, needed a preflight.
  expect(methods).toContain("OPTIONS");
  expect(problems).toEqual([]);
  await page.close();
});

test("without the CORS headers the same page cannot read it (the control)", async () => {
  const { page } = await openApp();
  const failure = await page.evaluate((base) => window.read(base).then(() => "read", (e) => String(e)), bare.url);
  expect(failure).toMatch(/Failed to fetch/);
  await page.close();
});
