// Writes through the package's compressors: zarr.set with zarrita 0.5, 0.6
// and 0.7 (register(zarr.registry), so the encoder module compresses) into
// Zarr v2, Zarr v3 and N5 arrays with each codec (zstd, with a checksum in
// v3; gzip; zlib; lz4; blosc with every cname and shuffle, typesizes 2, 4
// and 8), the whole array then a region across chunks (read, modified,
// written again: the decoders and encoders both run). The store is then
// read by independent readers in a Python process
// (scripts/compressed-read-back.py: zarr-python 2 and numcodecs for v2,
// zarr-python 2's N5Store for N5, numcodecs chunk by chunk for v3) and
// compared value for value; the frames' headers say what the metadata asks
// (blosc's compressor, shuffle and typesize, zstd's checksum flag, lz4's
// size header).
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, withN5 } from "../../../js/index.js";
import { ROOT } from "../support/browser.js";
import { ZARRITAS } from "../support/zarritas.js";

jest.setTimeout(120000);

const SHAPE = [20, 30];
const CHUNKS = [12, 24];
const CNAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"];
const SHUFFLES = ["noshuffle", "shuffle", "bitshuffle"];
const CNAME_CODE = { blosclz: 0, lz4: 1, lz4hc: 1, zlib: 3, zstd: 4 };
const TYPES = {
  uint16: { Array: Uint16Array, v2: "<u2", n5: "uint16" },
  int32: { Array: Int32Array, v2: "<i4", n5: "int32" },
  float64: { Array: Float64Array, v2: "<f8", n5: "float64" },
};

/** Image-like values (a smooth 12-bit background, a little noise), per type. */
function valuesOf(type, seed) {
  const n = SHAPE[0] * SHAPE[1];
  const out = new TYPES[type].Array(n);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const [r, c] = [Math.floor(i / SHAPE[1]), i % SHAPE[1]];
    const v = Math.round(600 + 400 * Math.sin(c / 7) * Math.cos(r / 5) + 3 * c + (x >>> 28)) & 0xfff;
    out[i] = type === "float64" ? v / 7 : type === "int32" ? v - 2048 : v;
  }
  return out;
}

// A region across chunk boundaries, written after the whole array.
const REGION = { rows: [5, 15], cols: [20, 27] };
function patched(values, type) {
  const out = values.slice();
  const patch = regionPatch(type);
  for (let r = REGION.rows[0], k = 0; r < REGION.rows[1]; r++) for (let c = REGION.cols[0]; c < REGION.cols[1]; c++) out[r * SHAPE[1] + c] = patch.data[k++];
  return out;
}
function regionPatch(type) {
  const shape = [REGION.rows[1] - REGION.rows[0], REGION.cols[1] - REGION.cols[0]];
  const data = new TYPES[type].Array(shape[0] * shape[1]).map((_, i) => (type === "float64" ? -i / 3 : 4000 - 17 * i));
  return { data, shape, stride: [shape[1], 1] };
}

// [name, data type, compressor: v2 numcodecs config / v3 codec list / N5 compression, what its frames must say]
function casesV2() {
  const out = [
    ["zstd", "uint16", { id: "zstd", level: 3 }, { zstd: {} }],
    ["gzip", "int32", { id: "gzip", level: 5 }, { gzip: true }],
    ["zlib", "float64", { id: "zlib", level: 1 }, { zlib: true }],
    ["lz4", "uint16", { id: "lz4", acceleration: 1 }, { lz4: true }],
    ["blosc_zstd_shuffle_i4", "int32", { id: "blosc", cname: "zstd", clevel: 5, shuffle: 1, blocksize: 0 }, { blosc: { cname: "zstd", shuffle: 1, typesize: 4 } }],
    ["blosc_lz4_bitshuffle_f8", "float64", { id: "blosc", cname: "lz4", clevel: 5, shuffle: 2, blocksize: 0 }, { blosc: { cname: "lz4", shuffle: 2, typesize: 8 } }],
  ];
  for (const cname of CNAMES) {
    SHUFFLES.forEach((s, shuffle) => out.push([`blosc_${cname}_${s}`, "uint16", { id: "blosc", cname, clevel: 5, shuffle, blocksize: 0 }, { blosc: { cname, shuffle, typesize: 2 } }]));
  }
  return out;
}
function casesV3() {
  const bytes = { name: "bytes", configuration: { endian: "little" } };
  const out = [
    ["zstd_checksum", "uint16", [bytes, { name: "zstd", configuration: { level: 3, checksum: true } }], { zstd: { checksum: true } }],
    ["zstd_crc32c", "int32", [bytes, { name: "zstd", configuration: { level: 0, checksum: false } }, { name: "crc32c" }], { zstd: {}, crc32c: true }],
    ["gzip", "float64", [bytes, { name: "gzip", configuration: { level: 5 } }], { gzip: true }],
    ["numcodecs_zlib", "int32", [bytes, { name: "numcodecs.zlib", configuration: { level: 1 } }], { zlib: true }],
    ["numcodecs_lz4", "uint16", [bytes, { name: "numcodecs.lz4", configuration: { acceleration: 1 } }], { lz4: true }],
    [
      "big_endian_blosc",
      "int32",
      [{ name: "bytes", configuration: { endian: "big" } }, { name: "blosc", configuration: { typesize: 4, cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 0 } }],
      { blosc: { cname: "lz4", shuffle: 1, typesize: 4 } },
    ],
  ];
  for (const cname of CNAMES) {
    SHUFFLES.forEach((s, shuffle) =>
      out.push([`blosc_${cname}_${s}`, "uint16", [bytes, { name: "blosc", configuration: { typesize: 2, cname, clevel: 5, shuffle: s, blocksize: 0 } }], { blosc: { cname, shuffle, typesize: 2 } }]),
    );
  }
  return out;
}
function casesN5() {
  const out = [
    ["gzip", "uint16", { type: "gzip", level: 5 }, { gzip: true }],
    ["zlib", "int32", { type: "gzip", level: 5, useZlib: true }, { zlib: true }],
    ["zstd", "float64", { type: "zstd", level: 3 }, { zstd: {} }],
  ];
  for (const cname of CNAMES) {
    SHUFFLES.forEach((s, shuffle) => out.push([`blosc_${cname}_${s}`, "uint16", { type: "blosc", cname, clevel: 5, shuffle, blocksize: 0 }, { blosc: { cname, shuffle } }]));
  }
  return out;
}

const json = (o) => JSON.stringify(o);

function metadata(format, [name, type, compressor]) {
  if (format === "v2") {
    return [[`${name}/.zarray`, json({ zarr_format: 2, shape: SHAPE, chunks: CHUNKS, dtype: TYPES[type].v2, compressor, fill_value: 0, order: "C", filters: null, dimension_separator: "." })]];
  }
  if (format === "v3") {
    return [[`${name}/zarr.json`, json({
      zarr_format: 3, node_type: "array", shape: SHAPE, data_type: type,
      chunk_grid: { name: "regular", configuration: { chunk_shape: CHUNKS } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0, codecs: compressor, attributes: {},
    })]];
  }
  // N5: dimensions and blockSize in N5's order (zarr-python's reversed).
  return [[`${name}/attributes.json`, json({ dimensions: [...SHAPE].reverse(), blockSize: [...CHUNKS].reverse(), dataType: TYPES[type].n5, compression: compressor })]];
}

/** The chunk files of an array (v2 "r.c", v3 "c/r/c", N5 "c/r"). */
function chunkFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (!/^(\.zarray|zarr\.json|attributes\.json)$/.test(e.name)) out.push(new Uint8Array(readFileSync(join(d, e.name))));
    }
  };
  walk(dir);
  return out;
}

/** What each stored frame must say of itself (N5 blocks: after their 12-byte header). */
function checkFrames(format, dir, type, says) {
  const chunkBytes = CHUNKS[0] * CHUNKS[1] * TYPES[type].Array.BYTES_PER_ELEMENT;
  const files = chunkFiles(dir);
  expect(files.length).toBe(4);
  for (const file of files) {
    const frame = format === "n5" ? file.subarray(12) : says.crc32c ? file.subarray(0, file.length - 4) : file;
    if (says.blosc) {
      expect(frame[0]).toBe(2); // c-blosc 1's format version
      expect(frame[2] >> 5).toBe(CNAME_CODE[says.blosc.cname]);
      if (!(frame[2] & 0x02)) {
        expect([frame[2] & 0x01, (frame[2] >> 2) & 0x01]).toEqual([says.blosc.shuffle === 1 ? 1 : 0, says.blosc.shuffle === 2 ? 1 : 0]);
      }
      if (says.blosc.typesize) expect(frame[3]).toBe(says.blosc.typesize);
      expect(new DataView(frame.buffer, frame.byteOffset).getInt32(4, true)).toBe(chunkBytes);
    }
    if (says.zstd) {
      expect(Array.from(frame.subarray(0, 4))).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
      expect(Boolean(frame[4] & 0x04)).toBe(Boolean(says.zstd.checksum));
    }
    if (says.gzip) expect(Array.from(frame.subarray(0, 3))).toEqual([0x1f, 0x8b, 8]);
    if (says.zlib) expect(frame[0] & 0x0f).toBe(8);
    if (says.lz4) expect(new DataView(frame.buffer, frame.byteOffset).getUint32(0, true)).toBe(chunkBytes);
  }
}

const hexOf = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

let tmp;
beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
  tmp = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-compressed-writes-"));
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const FORMATS = [["v2", casesV2()], ["v3", casesV3()], ["n5", casesN5()]];

describe.each(ZARRITAS)("zarrita %s", (version, zarr) => {
  test.each(FORMATS)("%s: each codec written by zarr.set (whole, then a region), read back by Python as written", async (format, cases) => {
    const dir = join(tmp, `${version}-${format}`);
    mkdirSync(dir, { recursive: true });
    if (format === "n5") writeFileSync(join(dir, "attributes.json"), json({ n5: "2.0.0" }));
    for (const c of cases) {
      for (const [key, text] of metadata(format, c)) {
        mkdirSync(join(dir, key, ".."), { recursive: true });
        writeFileSync(join(dir, key), text);
      }
    }
    const fs = new FileSystemStore(dir);
    const store = format === "n5" ? withN5(fs) : fs;
    const want = {};
    for (const [seed, [name, type]] of cases.entries()) {
      const location = zarr.root(store).resolve(name);
      const arr = await (format === "v2" ? zarr.open.v2(location, { kind: "array" }) : zarr.open(location, { kind: "array" }));
      const values = valuesOf(type, seed);
      await zarr.set(arr, null, { data: values, shape: SHAPE, stride: [SHAPE[1], 1] });
      await zarr.set(arr, [zarr.slice(...REGION.rows), zarr.slice(...REGION.cols)], regionPatch(type));
      want[name] = hexOf(patched(values, type));
      // zarrita reads it back too (the package's decoders).
      expect([name, hexOf((await zarr.get(arr)).data)]).toEqual([name, want[name]]);
    }
    for (const [name, type, , says] of cases) checkFrames(format, join(dir, name), type, says);
    const out = execFileSync("/usr/bin/python3", [join(ROOT, "scripts/compressed-read-back.py"), dir, format, ...cases.map(([name]) => name)], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const back = JSON.parse(out);
    for (const [name] of cases) {
      expect([name, back[name].error]).toEqual([name, undefined]);
      expect([name, back[name].shape]).toEqual([name, SHAPE]);
      expect([name, back[name].le_hex]).toEqual([name, want[name]]);
    }
  });
});
