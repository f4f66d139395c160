// Libraries that bring their own zarrita: the real ome-zarr.js 0.0.19 and
// @fideus-labs/ngff-zarr 0.14.0 from npm, installed as apps get them
// (tests/apps/ome-zarr-libraries*, by scripts/setup.sh's npm ci), open the
// OME-Zarr 0.4 (Zarr v2) and 0.5 (Zarr v3, sharded) stores of
// scripts/make-ome-zarr-stores.py over HTTP, through their own functions.
// What docs/where-it-runs.md says of each install layout is checked here:
//   - the README's install: each library keeps its own zarrita, which
//     register(zarr.registry) on the app's zarrita never reaches; read on
//     the libraries' arrays reads them all the same (with no register() at
//     all, the arrays zarrita reads alone: zstd);
//   - npm overrides to the app's zarrita 0.7.5: ome-zarr.js decodes with
//     the registered copy; ngff-zarr fails at import;
//   - the app pinned to zarrita ~0.6.2 (overrides for ome-zarr.js): one
//     copy, registered, for both libraries.
// Where registration reaches is counted by diagnostics().zarritaCopies().
// Every value is checked against the stores' formula, computed here again.
// (Registration is this file's state: the layouts run in order, the
// unregistered one first. Jest gives the file its own module graph.)
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { diagnostics, read, ready, register } from "../../../js/index.js";
import { fixtureInMemory, fixturePath } from "../support/fixtures.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { pathsTaken } from "../support/read-compare.js";

const APPS = fileURLToPath(new URL("../../apps/", import.meta.url));
const app = (name) => import(`../../apps/${name}/libraries.js`);

// The stores' images (scripts/make-ome-zarr-stores.py): the formula of
// their values, their levels, and how many (inner) chunks of 32 x 32 each
// level has.
const LEVELS = [[100, 90], [50, 45]];
const CHUNKS = [12, 4];
const SEEDS = { zstd: 0, delta: 12345, packbits: 777 };
const IMAGES = [
  ["ome-zarr-0.4.zarr", "zstd"],
  ["ome-zarr-0.4.zarr", "delta"],
  ["ome-zarr-0.5.zarr", "zstd"],
  ["ome-zarr-0.5.zarr", "packbits"],
];

function expectedValues(image, level) {
  const [h, w] = LEVELS[level];
  const out = new Uint16Array(h * w);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = (613 * y + 97 * x + ((y * x) % 5) + 40000 * level + SEEDS[image]) % 65536;
      out[y * w + x] = image === "packbits" ? v & 0x0fff : v;
    }
  }
  return out;
}

/** The shape, the container and how many values differ from the formula's. */
function checked({ data, shape }, image, level) {
  const want = expectedValues(image, level);
  let wrong = data.length === want.length ? 0 : Math.max(data.length, want.length);
  for (let i = 0; i < Math.min(data.length, want.length); i++) if (data[i] !== want[i]) wrong += 1;
  return { shape, container: data.constructor.name, wrong };
}
const right = (level) => ({ shape: LEVELS[level], container: "Uint16Array", wrong: 0 });

function version(path) {
  const file = join(APPS, path, "package.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : undefined;
}

/** The zarrita each library imports in an app, as npm laid it out. */
function layout(name) {
  const at = (dir) => version(`${name}/node_modules/${dir}/node_modules/zarrita`) ?? `app's ${version(`${name}/node_modules/zarrita`)}`;
  return { "ome-zarr.js": at("ome-zarr.js"), "@fideus-labs/ngff-zarr": at("@fideus-labs/ngff-zarr"), "@fideus-labs/fizarrita": at("@fideus-labs/fizarrita") };
}

/** The arrays of every image's two levels, as a library opens them. */
async function openAll(open) {
  const out = [];
  for (const [store, image] of IMAGES) {
    const arrays = await open(`${server.url}/${store}/${image}`);
    arrays.forEach((arr, level) => out.push({ store, image, level, arr }));
  }
  return out;
}
// ome-zarr.js: getMultiscaleWithArray(store, datasetIndex) gives the
// dataset's zarrita array, opened with its zarrita.
const withOmeZarr = (omeZarr) => openAll((url) => Promise.all([0, 1].map(async (i) => (await omeZarr.getMultiscaleWithArray(url, i)).arr)));
// ngff-zarr: fromNgffZarr(url) gives a Multiscales whose images hold zarrita arrays.
const withNgffZarr = (ngffZarr) => openAll(async (url) => (await ngffZarr.fromNgffZarr(url)).images.map((image) => image.data));

/** Each array read with read(), as checked(). */
async function readEach(arrays) {
  const out = [];
  for (const { image, level, arr } of arrays) out.push(checked(await read(arr), image, level));
  return out;
}

/**
 * An array as its own zarrita copy decodes it: getChunk for every chunk
 * (the decode zarr.get and the libraries' rendering run), placed by hand.
 */
async function ownCopyRead(arr) {
  const [h, w] = arr.shape;
  const [ch, cw] = arr.chunks;
  const data = new Uint16Array(h * w);
  for (let cy = 0; cy * ch < h; cy++) {
    for (let cx = 0; cx * cw < w; cx++) {
      const chunk = await arr.getChunk([cy, cx]);
      for (let y = 0; y < ch && cy * ch + y < h; y++) {
        for (let x = 0; x < cw && cx * cw + x < w; x++) data[(cy * ch + y) * w + cx * cw + x] = chunk.data[y * chunk.stride[0] + x * chunk.stride[1]];
      }
    }
  }
  return { data, shape: [h, w] };
}

/** What `get` makes of each array: checked(), or the message it fails with. */
async function decodedEach(arrays, get) {
  const out = [];
  for (const { image, level, arr } of arrays) {
    try {
      out.push(checked(await get(arr), image, level));
    } catch (error) {
      out.push(error.message);
    }
  }
  return out;
}

/** What diagnostics() lists of the copies that `run` brought to read first. */
async function copiesMet(run) {
  const before = (await diagnostics().zarritaCopies()).length;
  await run();
  return (await diagnostics().zarritaCopies()).slice(before);
}

/** ome-zarr.js's own rendering of an image's level 1: its size, or the message it fails with. */
async function rendered(omeZarr, store, image) {
  try {
    const ngff = await omeZarr.NgffImage.load(`${server.url}/${store}/${image}`);
    const { width, height } = await ngff.renderRgba({ arrayPathOrIndex: 1 });
    return [height, width];
  } catch (error) {
    return error.message;
  }
}

let server;

beforeAll(async () => {
  const files = fixtureInMemory(fixturePath(""), ["ome-zarr-0.4.zarr", "ome-zarr-0.5.zarr"]);
  server = await startNetworkServer(files);
  await ready();
});

afterAll(() => server?.close());

const ALL_RIGHT = IMAGES.flatMap(() => [right(0), right(1)]);
const ALL_CHUNKS = IMAGES.length * (CHUNKS[0] + CHUNKS[1]);

describe("the README's install: each library keeps its own zarrita", () => {
  let libs;
  let ngffZarr;
  beforeAll(async () => {
    libs = await app("ome-zarr-libraries");
    ngffZarr = await libs.ngffZarr();
  });

  test("npm nests zarrita 0.5.4 in ome-zarr.js and 0.6.2 in ngff-zarr; fizarrita shares the app's 0.7.5", () => {
    expect(layout("ome-zarr-libraries")).toEqual({
      "ome-zarr.js": "0.5.4",
      "@fideus-labs/ngff-zarr": "0.6.2",
      "@fideus-labs/fizarrita": "app's 0.7.5",
    });
  });

  test("with no register() at all, read reads what the libraries' zarrita reads alone (zstd) and names the codec it lacks", async () => {
    const results = [];
    const copies = await copiesMet(async () => {
      for (const arrays of [await withOmeZarr(libs.omeZarr), await withNgffZarr(ngffZarr)]) {
        for (const { image, level, arr } of arrays) {
          try {
            const { value, taken } = await pathsTaken(() => read(arr));
            results.push({ image, level, ...checked(value, image, level), viaZarrita: taken.viaZarrita });
          } catch (error) {
            results.push({ image, level, code: error.code, codec: /names the codec "(\w+)"/.exec(error.message)?.[1] });
          }
        }
      }
    });
    const zstd = (level) => ({ image: "zstd", level, ...right(level), viaZarrita: CHUNKS[level] });
    const refused = (image, level) => ({ image, level, code: "UNKNOWN_CODEC", codec: image });
    const eachLibrary = [zstd(0), zstd(1), refused("delta", 0), refused("delta", 1), zstd(0), zstd(1), refused("packbits", 0), refused("packbits", 1)];
    expect(results).toEqual([...eachLibrary, ...eachLibrary]);
    // One entry per copy, however many of its arrays: neither registered.
    expect(copies).toEqual([
      { registered: false, zarrita: "0.5 or 0.6", arrays: 8, firstPath: "/0" },
      { registered: false, zarrita: "0.5 or 0.6", arrays: 8, firstPath: "/0" },
    ]);
  });

  test("register(zarr.registry) on the app's zarrita: read reads every array of both libraries, their own decoding still lacks the codecs", async () => {
    register(libs.zarr.registry);
    const omeArrays = await withOmeZarr(libs.omeZarr);
    const ngffArrays = await withNgffZarr(ngffZarr);
    const { value, taken } = await pathsTaken(() => readEach([...omeArrays, ...ngffArrays]));
    expect(value).toEqual([...ALL_RIGHT, ...ALL_RIGHT]);
    // read decoded every chunk itself, with the registered codecs.
    expect(taken).toMatchObject({ viaZarrita: 0, filled: 0 });
    expect(taken.decoded + taken.copied).toBe(2 * ALL_CHUNKS);

    // The libraries' copies decode as before: the delta and packbits
    // images fail, through getChunk (zarr.get's decode), ome-zarr.js's
    // rendering and ngff-zarr's zarrGet (in Node it reads sharded arrays
    // with its zarrita's zarr.get and leaves the rest to Web Workers).
    const lacking = ({ image, level }) => (image === "zstd" ? right(level) : `Unknown codec: ${image}`);
    expect(await decodedEach(omeArrays, ownCopyRead)).toEqual(omeArrays.map(lacking));
    expect(await decodedEach(ngffArrays, ownCopyRead)).toEqual(ngffArrays.map(lacking));
    expect(await rendered(libs.omeZarr, "ome-zarr-0.5.zarr", "packbits")).toBe("Unknown codec: packbits");
    const sharded = ngffArrays.filter((a) => a.store === "ome-zarr-0.5.zarr");
    expect(await decodedEach(sharded, (arr) => ngffZarr.zarrGet(arr))).toEqual(sharded.map(lacking));

    // diagnostics() tells: the libraries' two copies are not registered;
    // the app's own, once an array of it reaches read, is.
    const appArray = await libs.zarr.open(libs.zarr.root(new libs.zarr.FetchStore(`${server.url}/ome-zarr-0.5.zarr/packbits/0`)), { kind: "array" });
    expect(checked(await read(appArray), "packbits", 0)).toEqual(right(0));
    expect(await diagnostics().zarritaCopies()).toEqual([
      { registered: false, zarrita: "0.5 or 0.6", arrays: 16, firstPath: "/0" },
      { registered: false, zarrita: "0.5 or 0.6", arrays: 16, firstPath: "/0" },
      { registered: true, zarrita: "0.7 or later", arrays: 1, firstPath: "/" },
    ]);
  });
});

describe("npm overrides: every library on the app's zarrita 0.7.5", () => {
  let libs;
  beforeAll(async () => {
    libs = await app("ome-zarr-libraries-overrides");
  });

  test("npm puts one zarrita, the app's 0.7.5", () => {
    expect(layout("ome-zarr-libraries-overrides")).toEqual({
      "ome-zarr.js": "app's 0.7.5",
      "@fideus-labs/ngff-zarr": "app's 0.7.5",
      "@fideus-labs/fizarrita": "app's 0.7.5",
    });
  });

  test("ngff-zarr 0.14.0 fails at import: it imports a name zarrita 0.7.5 does not export", async () => {
    const error = await libs.ngffZarr().then(() => undefined, (e) => e);
    expect(error).toBeInstanceOf(SyntaxError);
    expect(error.message).toBe("The requested module 'zarrita' does not provide an export named '_zarrita_internal_get_strides'");
  });

  test("register(zarr.registry) reaches ome-zarr.js's zarrita: its own decoding and read give every value", async () => {
    let omeArrays;
    const copies = await copiesMet(async () => {
      register(libs.zarr.registry);
      omeArrays = await withOmeZarr(libs.omeZarr);
      expect(await readEach(omeArrays)).toEqual(ALL_RIGHT);
    });
    expect(await decodedEach(omeArrays, (arr) => libs.zarr.get(arr))).toEqual(ALL_RIGHT);
    expect(await rendered(libs.omeZarr, "ome-zarr-0.5.zarr", "packbits")).toEqual(LEVELS[1]);
    expect(copies).toEqual([{ registered: true, zarrita: "0.7 or later", arrays: 8, firstPath: "/0" }]);
  });
});

describe("the app pinned to zarrita ~0.6.2, with overrides: one copy for both libraries", () => {
  let libs;
  let ngffZarr;
  beforeAll(async () => {
    libs = await app("ome-zarr-libraries-zarrita-0.6");
    ngffZarr = await libs.ngffZarr();
  });

  test("npm puts one zarrita, the app's 0.6.2", () => {
    expect(layout("ome-zarr-libraries-zarrita-0.6")).toEqual({
      "ome-zarr.js": "app's 0.6.2",
      "@fideus-labs/ngff-zarr": "app's 0.6.2",
      "@fideus-labs/fizarrita": "app's 0.6.2",
    });
  });

  test("register(zarr.registry) reaches both libraries' zarrita: their own decoding and read give every value", async () => {
    let omeArrays;
    let ngffArrays;
    const copies = await copiesMet(async () => {
      register(libs.zarr.registry);
      omeArrays = await withOmeZarr(libs.omeZarr);
      ngffArrays = await withNgffZarr(ngffZarr);
      expect(await readEach([...omeArrays, ...ngffArrays])).toEqual([...ALL_RIGHT, ...ALL_RIGHT]);
    });
    expect(await decodedEach([...omeArrays, ...ngffArrays], (arr) => libs.zarr.get(arr))).toEqual([...ALL_RIGHT, ...ALL_RIGHT]);
    expect(await rendered(libs.omeZarr, "ome-zarr-0.5.zarr", "packbits")).toEqual(LEVELS[1]);
    const sharded = ngffArrays.filter((a) => a.store === "ome-zarr-0.5.zarr");
    expect(await decodedEach(sharded, (arr) => ngffZarr.zarrGet(arr))).toEqual(sharded.map(({ level }) => right(level)));
    expect(copies).toEqual([{ registered: true, zarrita: "0.5 or 0.6", arrays: 16, firstPath: "/0" }]);
  });
});
