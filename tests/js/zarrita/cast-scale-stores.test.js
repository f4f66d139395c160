// Stores with scale_offset and cast_value (the layout zarr-python 3.2
// writes: a float array stored as integers), read through zarr.get on
// every supported zarrita and through read, with the package registered,
// against values worked by hand from the zarr-extensions pages. First,
// before anything is registered, zarrita's own results on the same
// stores: the two wrong results of issue 35 on zarrita 0.7.5, and 0.6's
// unhandled rejection on a chain of two codecs it does not know.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { createReadPool, read, ready, register } from "../../../js/index.js";
import { memoryStore, rejectionOf } from "../support/memory-store.js";
import { ZARRITAS } from "../support/zarritas.js";
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

/** zarr.get of the kelvin store on zarrita 0.6.2 in a fresh Node: its result and unhandled rejections. */
function rejectionsOnZarrita06(registered) {
  const script = fileURLToPath(new URL("../support/zarrita06-rejections.mjs", import.meta.url));
  const run = spawnSync(process.execPath, [script, registered ? "registered" : "plain"], { encoding: "utf8", timeout: 60000 });
  if (run.status !== 0) throw new Error(`the child failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
const zarr06 = ZARRITAS.find(([v]) => v === "0.6.2")[1];
// zarrita 0.7.5's own cast_value loader, taken before register replaces it.
const zarritasCastValue = zarr7.registry.get("cast_value");

// A 1-d v3 array of `n` elements in chunks of 4, stored as `stored`
// (little-endian bytes of the encoded type); chunk 1 is left missing.
function store({ dataType, fill, codecs, stored, gzip = false }) {
  const n = stored.length;
  const meta = {
    zarr_format: 3, node_type: "array", shape: [n], data_type: dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: fill, codecs, attributes: {},
  };
  const files = [["/a/zarr.json", meta]];
  const bytes = new Uint8Array(stored.buffer);
  const width = stored.BYTES_PER_ELEMENT;
  for (let c = 0; c * 4 < n; c++) {
    if (c === 1) continue;
    // A chunk at the edge is stored whole; past the array's end it holds fill.
    const chunk = new Uint8Array(4 * width);
    chunk.set(bytes.subarray(c * 4 * width, Math.min(n, c * 4 + 4) * width));
    files.push([`/a/c/${c}`, gzip ? new Uint8Array(gzipSync(chunk)) : chunk]);
  }
  return memoryStore(files);
}

// The store: float32 kelvin stored as uint16 through
// scale_offset (offset 250, scale 100) and cast_value.
const kelvinStored = new Uint16Array([4392, 0, 1, 65535, 9, 9, 9, 9, 12345, 7]);
const KELVIN = {
  dataType: "float32", fill: 250,
  codecs: [
    { name: "scale_offset", configuration: { offset: 250, scale: 100 } },
    { name: "cast_value", configuration: { data_type: "uint16" } },
    { name: "bytes", configuration: { endian: "little" } },
  ],
  stored: kelvinStored,
};
// The page's rule: float32 arithmetic, rounded after each operation.
const kelvinExpected = Array.from(kelvinStored, (s, i) => (i >= 4 && i < 8 ? 250 : Math.fround(Math.fround(s / 100) + 250)));

// float32 stored as float16 (bit codes 0x3c00 = 1, 0x4248 = 3.140625, 0xc000 = -2, 0x8000 = -0, 0x7e00 = NaN).
const halfStored = new Uint16Array([0x3c00, 0x4248, 0xc000, 0x8000, 0, 0, 0, 0, 0x7e00, 0x7bff]);
const HALF = {
  dataType: "float32", fill: 0,
  codecs: [{ name: "cast_value", configuration: { data_type: "float16" } }, { name: "bytes", configuration: { endian: "little" } }],
  stored: halfStored,
};
const halfExpected = [1, 3.140625, -2, -0, 0, 0, 0, 0, NaN, 65504];

// The scale_offset page's last example: float64 with NaN fill as uint8, 0 reserved for NaN.
const nanStored = new Uint8Array([0, 1, 255, 100, 7, 7, 7, 7, 2]);
const NAN_MAPPED = {
  dataType: "float64", fill: "NaN",
  codecs: [
    { name: "scale_offset", configuration: { offset: -10, scale: 0.1 } },
    { name: "cast_value", configuration: { data_type: "uint8", rounding: "nearest-even", scalar_map: { encode: [["NaN", 0]], decode: [[0, "NaN"]] } } },
    { name: "bytes" },
  ],
  stored: nanStored,
};
const nanExpected = Array.from(nanStored, (s, i) => (i >= 4 && i < 8 ? NaN : s === 0 ? NaN : s / 0.1 + -10));

// The page's uint16 range reduction: offset 1000, then uint8.
const rangeStored = new Uint8Array([0, 255, 17, 3, 0, 0, 0, 0]);
const RANGE = {
  dataType: "uint16", fill: 1000,
  codecs: [{ name: "scale_offset", configuration: { offset: 1000 } }, { name: "cast_value", configuration: { data_type: "uint8" } }, { name: "bytes" }],
  stored: rangeStored,
};
const rangeExpected = Array.from(rangeStored, (s, i) => (i >= 4 && i < 8 ? 1000 : s + 1000));

// cast_value before scale_offset: scale_offset computes in the stored
// int16 (zarrita 0.5 and 0.6 would tell it float32, the array's type).
const orderStored = new Int16Array([-1000, 0, 5, -32768, 1, 1, 1, 1, 31767]);
const ORDER = {
  dataType: "float32", fill: 1000,
  codecs: [
    { name: "cast_value", configuration: { data_type: "int16" } },
    { name: "scale_offset", configuration: { offset: 1000 } },
    { name: "bytes", configuration: { endian: "little" } },
  ],
  stored: orderStored,
};
const orderExpected = Array.from(orderStored, (s, i) => (i >= 4 && i < 8 ? 1000 : s + 1000));

// float32 stored as float8_e4m3 codes: 1, 240, NaN, -0, 0.001953125 (the smallest subnormal), -1.125.
const e4m3Stored = new Uint8Array([0x38, 0x77, 0x7c, 0x80, 0, 0, 0, 0, 0x01, 0xb9]);
const E4M3 = {
  dataType: "float32", fill: 0,
  codecs: [{ name: "cast_value", configuration: { data_type: "float8_e4m3" } }, { name: "bytes" }],
  stored: e4m3Stored,
};
const e4m3Expected = [1, 240, NaN, -0, 0, 0, 0, 0, 2 ** -9, -1.125];

// float64 stored as int4 (one byte per value, sign-extended).
const int4Stored = new Int8Array([-8, 7, -1, 0, 0, 0, 0, 0, 3]);
const INT4 = {
  dataType: "float64", fill: 0,
  codecs: [{ name: "cast_value", configuration: { data_type: "int4", out_of_range: "clamp" } }, { name: "bytes" }],
  stored: int4Stored,
};
const int4Expected = Array.from(int4Stored);

const STORES = [
  ["cast_value before scale_offset (scale_offset in the stored int16)", ORDER, orderExpected],
  ["float8_e4m3 stored, float32 array", E4M3, e4m3Expected],
  ["int4 stored, float64 array", INT4, int4Expected],
  ["kelvin (scale_offset + cast_value float32 <- uint16)", KELVIN, kelvinExpected],
  ["float16 stored, float32 array", HALF, halfExpected],
  ["NaN fill through scalar_map", NAN_MAPPED, nanExpected],
  ["uint16 range reduction", RANGE, rangeExpected],
  // A compressor after a cast_value that changes the width: on zarrita 0.5
  // and 0.6 it is told the stored type too (its decoded size), as zarrita
  // 0.7 tells it (node's gzip writes the chunks).
  ["kelvin, gzip-compressed", { ...KELVIN, codecs: [...KELVIN.codecs, { name: "gzip", configuration: { level: 1 } }], gzip: true }, kelvinExpected],
  ["cast_value before scale_offset, gzip-compressed", { ...ORDER, codecs: [...ORDER.codecs, { name: "gzip", configuration: { level: 1 } }], gzip: true }, orderExpected],
];

async function getAll(zarr, spec) {
  const arr = await zarr.open(zarr.root(store(spec)).resolve("a"), { kind: "array" });
  return Array.from((await zarr.get(arr, null)).data);
}

beforeAll(() => ready());

describe("before registering: zarrita's own results", () => {
  test("zarrita 0.7.5 computes scale_offset on float32 in doubles: 293.92001 where the page requires 293.91998", async () => {
    const values = await getAll(zarr7, KELVIN);
    expect(values[0]).toBe(293.9200134277344);
    expect(values[0]).not.toBe(kelvinExpected[0]);
  });

  // Jest reports an unhandled rejection as a failure of its own, so the
  // count is taken in a child process, as an application would meet it.
  test("zarrita 0.6 rejects a chain of two codecs it does not know, leaving unhandled rejections", () => {
    const plain = rejectionsOnZarrita06(false);
    expect(plain.result).toMatch(/Unknown codec/);
    expect(plain.unhandled.length).toBeGreaterThan(0);
    expect(plain.unhandled[0]).toMatch(/Unknown codec: (scale_offset|cast_value)/);
  });
});

describe("registered on every zarrita", () => {
  beforeAll(() => {
    for (const [, zarr] of ZARRITAS) register(zarr.registry);
  });

  test("zarrita 0.7.5's own cast_value after the package's bytes reads float16 bit codes as numbers; ours reads the values", async () => {
    const ours = zarr7.registry.get("cast_value");
    zarr7.registry.set("cast_value", zarritasCastValue);
    let theirs;
    try {
      theirs = await getAll(zarr7, HALF);
    } finally {
      zarr7.registry.set("cast_value", ours);
    }
    expect(theirs[0]).toBe(0x3c00); // the bits of 1.0, as a number
    expect(await getAll(zarr7, HALF)).toEqual(halfExpected);
  });

  for (const [version, zarr] of ZARRITAS) {
    describe(`zarrita ${version}`, () => {
      test.each(STORES)("zarr.get: %s", async (_, spec, expected) => {
        expect(await getAll(zarr, spec)).toEqual(expected);
      });

      test.each(STORES)("read equals the page's values and zarr.get: %s", async (_, spec, expected) => {
        const arr = await zarr.open(zarr.root(store(spec)).resolve("a"), { kind: "array" });
        const ours = Array.from((await read(arr, null)).data);
        expect(ours).toEqual(expected);
        const region = await read(arr, [zarr.slice(2, 7)]);
        expect(Array.from(region.data)).toEqual(expected.slice(2, 7));
        expect(Array.from((await zarr.get(arr, [zarr.slice(2, 7)])).data)).toEqual(expected.slice(2, 7));
      });
    });
  }

  // A stored value the array's type cannot hold, with no out_of_range: an
  // error naming it, on every zarrita (0.7 wraps it in its pipeline error).
  test.each(ZARRITAS)("zarrita %s: a stored value out of the array's range is the package's error", async (_, zarr) => {
    const spec = {
      dataType: "uint8", fill: 0,
      codecs: [{ name: "cast_value", configuration: { data_type: "int16" } }, { name: "bytes", configuration: { endian: "little" } }],
      stored: new Int16Array([1, 300, 2, 3]),
    };
    const error = await getAll(zarr, spec).then(() => undefined, (e) => e);
    const ours = error?.name === "ZarrCodecError" ? error : error?.cause;
    expect(ours?.name).toBe("ZarrCodecError");
    expect(ours.code).toBe("VALUE_OUT_OF_RANGE");
    expect(ours.message).toMatch(/cast_value \(decode int16 -> uint8\): 300 is outside uint8's range 0..255/);
  });

  // zarrita 0.7 turns a v2 fixedscaleoffset filter into these two codecs
  // itself, with no array -> bytes codec (numcodecs-filters.test.js reads
  // those as numcodecs does). A v3 chain without one, whose entries are not
  // what that conversion writes, still follows the pages.
  test("zarrita 0.7.5: a v3 chain without an array -> bytes codec is not taken for zarrita's v2 conversion", async () => {
    const spec = {
      ...KELVIN,
      codecs: [
        { name: "scale_offset", configuration: { offset: 250, scale: 100 } },
        { name: "cast_value", configuration: { data_type: "uint16", rounding: "towards-zero" } },
      ],
    };
    expect(await getAll(zarr7, spec)).toEqual(kelvinExpected);
  });

  test("zarrita 0.7.5: a configuration ours refuses and zarrita's own takes still reads (registering never reads less)", async () => {
    // wrap on a float data_type: the page permits it only for integers;
    // zarrita 0.7.5's cast_value ignores out_of_range between floats.
    const spec = {
      dataType: "float64", fill: 0,
      codecs: [{ name: "cast_value", configuration: { data_type: "float32", out_of_range: "wrap" } }, { name: "bytes", configuration: { endian: "little" } }],
      stored: new Float32Array([1.5, -2, 0, 0]),
    };
    expect(await getAll(zarr7, spec)).toEqual([1.5, -2, 0, 0]);
  });

  // Where ours refuses a float16 chain (a fill the page's round trip rule
  // refuses), zarrita 0.7.5's own cast_value would read the float16 bit
  // codes as numbers (1, -0, 2 as 15360, 32768, 16384) with no error, as on
  // main at 4229392: the refusal stands, on every path.
  const F16_CODES = new Uint16Array([0x3c00, 0x8000, 0x4000, 0]);
  const F16_REFUSED = [
    [
      "a float32 fill of 0.1 stored as float16",
      { dataType: "float32", fill: 0.1, codecs: [{ name: "cast_value", configuration: { data_type: "float16" } }, { name: "bytes", configuration: { endian: "little" } }], stored: F16_CODES },
      /the fill value 0\.1 does not survive the round trip through float16 \(it comes back as 0\.0999755859375\)/,
    ],
    [
      "a fill of 0 behind a scale_offset with an offset of 0.3",
      {
        dataType: "float32", fill: 0,
        codecs: [{ name: "scale_offset", configuration: { offset: 0.3 } }, { name: "cast_value", configuration: { data_type: "float16" } }, { name: "bytes", configuration: { endian: "little" } }],
        stored: F16_CODES,
      },
      /does not survive the round trip through float16/,
    ],
  ];
  test.each(F16_REFUSED)("zarrita 0.7.5: %s is refused, never read by zarrita's own cast_value", async (_, spec, why) => {
    const zarritaAlone = /zarrita's own cast_value, which register\(\) replaced, is not used instead: it would read float16 bit codes as numbers \(this runtime has no Float16Array\)/;
    const arr = await zarr7.open(zarr7.root(store(spec)).resolve("a"), { kind: "array" });
    const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      for (const attempt of [zarr7.get(arr, null), read(arr, null), read(arr, null, { pool }), read(arr, null, { into: new Float32Array(4) })]) {
        const error = await rejectionOf(attempt);
        expect(error?.code).toBe("INVALID_METADATA");
        expect(error.message).toMatch(why);
        expect(error.message).toMatch(zarritaAlone);
      }
    } finally {
      await pool.close();
    }
  });

  // Encode: zarr.set writes through our codecs; the stored bytes are the
  // page's rules worked by hand.
  test.each(ZARRITAS)("zarrita %s: zarr.set encodes through scale_offset and cast_value", async (_, zarr) => {
    const spec = { ...KELVIN, stored: new Uint16Array(4) };
    const st = store(spec);
    st.files.delete("/a/c/0");
    const arr = await zarr.open(zarr.root(st).resolve("a"), { kind: "array" });
    const values = Float32Array.of(293.91998291015625, 250.004, 250.015, 905.35);
    await zarr.set(arr, null, { data: values, shape: [4], stride: [1] });
    const written = new Uint16Array(new Uint8Array(st.files.get("/a/c/0")).buffer);
    // (x - 250) * 100 in float32, then to uint16 by nearest-even
    const expected = Array.from(values, (x) => {
      const y = Math.fround(Math.fround(x - 250) * 100);
      const n = Math.floor(y);
      return y - n > 0.5 || (y - n === 0.5 && n % 2 === 1) ? n + 1 : n;
    });
    expect(Array.from(written)).toEqual(expected);
    expect(expected[0]).toBe(4392);
  });

  test("read with a pool gives the same values (these chains are decoded on the calling thread, through zarrita)", async () => {
    const pool = createReadPool({ workers: 1 });
    try {
      for (const [, spec, expected] of STORES) {
        const arr = await zarr7.open(zarr7.root(store(spec)).resolve("a"), { kind: "array" });
        expect(Array.from((await read(arr, null, { pool })).data)).toEqual(expected);
      }
    } finally {
      await pool.close();
    }
  });

  test("zarrita 0.6: the two-codec chain reads, and no rejection is left unhandled", () => {
    const registered = rejectionsOnZarrita06(true);
    expect(registered.result).toBe(JSON.stringify(kelvinExpected.slice(0, 4)));
    expect(registered.unhandled).toEqual([]);
  });
});
