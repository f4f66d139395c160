// The benchmark's end-to-end cases (issue 22): what a user waits for, a
// whole read and a region read of an array, not a codec call. A 4096 x
// 4096 array in 512 x 512 chunks (1024 x 1024 in 256 x 256 with --quick),
// in memory, stored five ways: 12-bit packbits, big-endian int16, a bool
// mask, float8_e4m3 widened to float32 (withDataTypes), and 12-bit packbits
// in 2048 x 2048 shards. Each is read, side by side in one process, by:
//   read          this package's read()
//   into          read() into an array made once
//   get           zarr.get with the package registered
//   zarritaLE     zarrita's own get of the same values stored little-endian,
//                 uncompressed, in the same chunks (what a user would read
//                 without this package, in the container the read returns)
//   floor         one fresh output array filled once
//   setFloor      one set() of the output into an array made once
// and the overhead per chunk with 64 x 64 chunks: read() of packbits
// chunks against zarr.get of little-endian ones.
import * as zarr from "zarrita";
import { read, withDataTypes } from "../js/index.js";
import { randomBytes } from "../tests/js/support/reference.js";
import { sideBySideAsync } from "./timing.mjs";

async function arrayOf(path, { shape, chunkShape, dtype, codecs, values, shards }) {
  const store = new Map();
  const create = { shape, chunkShape: shards ?? chunkShape, dtype, codecs, fillValue: dtype === "bool" ? false : 0 };
  const arr = await zarr.create(zarr.root(store).resolve(path), create);
  if (shards) {
    // zarrita 0.7 does not write sharded arrays: the metadata is made
    // sharded, and each shard laid out by hand from inner chunks zarrita
    // writes as an unsharded array of the chunk's shape.
    const key = `/${path}/zarr.json`;
    const doc = JSON.parse(new TextDecoder().decode(store.get(key)));
    doc.codecs = [{ name: "sharding_indexed", configuration: { chunk_shape: chunkShape, codecs, index_codecs: [{ name: "bytes", configuration: { endian: "little" } }] } }];
    store.set(key, new TextEncoder().encode(JSON.stringify(doc)));
    await writeShards(store, path, { shape, chunkShape, shards, dtype, codecs, values });
  } else {
    await zarr.set(arr, null, { data: values, shape, stride: [shape[1], 1] });
  }
  return { store, arr };
}

async function writeShards(store, path, { shape, chunkShape, shards, dtype, codecs, values }) {
  const per = shards.map((s, i) => s / chunkShape[i]);
  const scratch = new Map();
  const inner = await zarr.create(zarr.root(scratch).resolve("x"), { shape: chunkShape, chunkShape, dtype, codecs, fillValue: 0 });
  for (let si = 0; si < shape[0] / shards[0]; si++) {
    for (let sj = 0; sj < shape[1] / shards[1]; sj++) {
      const parts = [];
      const index = new BigUint64Array(2 * per[0] * per[1]);
      let offset = 0;
      for (let i = 0; i < per[0]; i++) {
        for (let j = 0; j < per[1]; j++) {
          const data = new values.constructor(chunkShape[0] * chunkShape[1]);
          for (let r = 0; r < chunkShape[0]; r++) {
            const row = (si * shards[0] + i * chunkShape[0] + r) * shape[1] + sj * shards[1] + j * chunkShape[1];
            data.set(values.subarray(row, row + chunkShape[1]), r * chunkShape[1]);
          }
          await zarr.set(inner, null, { data, shape: chunkShape, stride: [chunkShape[1], 1] });
          const bytes = scratch.get("/x/c/0/0");
          index[2 * (i * per[1] + j)] = BigInt(offset);
          index[2 * (i * per[1] + j) + 1] = BigInt(bytes.length);
          parts.push(bytes);
          offset += bytes.length;
        }
      }
      const out = new Uint8Array(offset + index.byteLength);
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      out.set(new Uint8Array(index.buffer), offset);
      store.set(`/${path}/c/${si}/${sj}`, out);
    }
  }
}

// A store with getRange over a Map, for the sharded case.
function withRanges(map) {
  return {
    get: (key) => map.get(key),
    getRange(key, range) {
      const bytes = map.get(key);
      if (!bytes) return undefined;
      return range.suffixLength !== undefined ? bytes.subarray(bytes.length - range.suffixLength) : bytes.subarray(range.offset, range.offset + range.length);
    },
  };
}

/**
 * @param {(what: string, ours: ArrayBufferView, theirs: ArrayBufferView) => void} check
 * @param {{quick: boolean, rounds: number}} options
 * @returns {Promise<object[]>} one entry per case and region: best ms of each contender
 */
export async function readCases(check, { quick, rounds }) {
  const side = quick ? 1024 : 4096;
  const chunk = quick ? 256 : 512;
  const shape = [side, side];
  const chunkShape = [chunk, chunk];
  const n = side * side;
  const u12 = new Uint16Array(randomBytes(2 * n, 101).buffer).map((v) => v & 0xfff);
  const i16 = new Int16Array(randomBytes(2 * n, 102).buffer);
  const mask = randomBytes(n, 103).map((v) => (v > 96 ? 1 : 0));
  const codes = randomBytes(n, 104).map((v) => (v & 0x7f) === 0x7f ? 0x3c : v); // float8_e4m3 codes, no NaN
  const cases = [
    { label: "uint16 12-bit packbits", dtype: "uint16", codecs: [{ name: "packbits", configuration: { last_bit: 11 } }], values: u12 },
    { label: "int16 big-endian", dtype: "int16", codecs: [{ name: "bytes", configuration: { endian: "big" } }], values: i16 },
    { label: "bool packbits", dtype: "bool", codecs: [{ name: "packbits" }], values: mask },
    { label: "float8_e4m3 widened", dtype: "float8_e4m3", codecs: [{ name: "bytes" }], values: codes, widened: true },
    { label: "uint16 12-bit packbits, sharded", dtype: "uint16", codecs: [{ name: "packbits", configuration: { last_bit: 11 } }], values: u12, shards: [side / 2, side / 2] },
  ];
  const regions = [
    ["whole", null],
    ["region", [zarr.slice(side / 8, side / 8 + (3 * side) / 4 - 72), zarr.slice(side / 8, side / 8 + (3 * side) / 4 - 72)]],
  ];
  const out = [];
  for (const c of cases) {
    // The package's array, and the same values little-endian for zarrita alone.
    let arr;
    if (c.widened) {
      // zarrita cannot create float8 arrays: written as uint8 codes, renamed.
      const { store } = await arrayOf("a", { shape, chunkShape, dtype: "uint8", codecs: c.codecs, values: c.values });
      const key = "/a/zarr.json";
      const doc = JSON.parse(new TextDecoder().decode(store.get(key)));
      doc.data_type = c.dtype;
      store.set(key, new TextEncoder().encode(JSON.stringify(doc)));
      arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("a"), { kind: "array" });
    } else {
      const { store } = await arrayOf("a", { shape, chunkShape, dtype: c.dtype, codecs: c.codecs, values: c.values, shards: c.shards });
      arr = await zarr.open(zarr.root(c.shards ? withRanges(store) : store).resolve("a"), { kind: "array" });
    }
    const whole = await zarr.get(arr);
    const leValues = c.widened ? whole.data : c.values;
    const leType = c.widened ? "float32" : c.dtype;
    const { arr: plainArr } = await arrayOf("p", { shape, chunkShape, dtype: leType, codecs: [{ name: "bytes", configuration: { endian: "little" } }], values: leValues });
    for (const [name, selection] of regions) {
      const theirs = await zarr.get(arr, selection);
      const ours = await read(arr, selection);
      check(`read ${c.label} ${name}`, ours.data, theirs.data);
      const plain = await zarr.get(plainArr, selection);
      check(`zarrita LE ${c.label} ${name}`, plain.data, theirs.data);
      const size = ours.data.length;
      const into = new ours.data.constructor(size);
      // set() of the output's bytes (zarrita's BoolArray.set takes an index
      // and one value, so its bytes are copied as a Uint8Array's).
      const bytesOf = (d) => new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
      const setDst = bytesOf(into);
      const setSrc = bytesOf(new ours.data.constructor(size)).fill(1);
      const ms = await sideBySideAsync({
        read: () => read(arr, selection),
        into: () => read(arr, selection, { into }),
        get: () => zarr.get(arr, selection),
        zarritaLE: () => zarr.get(plainArr, selection),
        floor: async () => new ours.data.constructor(size).fill(1),
        setFloor: async () => setDst.set(setSrc),
      }, rounds);
      out.push({ op: "read", label: c.label, region: name, shape: ours.shape, bytes: ours.data.byteLength, ms });
    }
  }
  // Overhead per chunk: 64 x 64 chunks, read() of packbits chunks against
  // zarr.get of little-endian ones of the same values.
  const small = quick ? [512, 512] : [2048, 2048];
  const sv = u12.subarray(0, small[0] * small[1]);
  const { arr: packedSmall } = await arrayOf("s", { shape: small, chunkShape: [64, 64], dtype: "uint16", codecs: [{ name: "packbits", configuration: { last_bit: 11 } }], values: sv });
  const { arr: plainSmall } = await arrayOf("t", { shape: small, chunkShape: [64, 64], dtype: "uint16", codecs: [{ name: "bytes", configuration: { endian: "little" } }], values: sv });
  check("read 64x64 chunks", (await read(packedSmall)).data, (await zarr.get(plainSmall)).data);
  const chunks = (small[0] / 64) * (small[1] / 64);
  const ms = await sideBySideAsync({
    read: () => read(packedSmall),
    getLE: () => zarr.get(plainSmall),
    get: () => zarr.get(packedSmall),
  }, rounds);
  out.push({ op: "read-per-chunk", label: `uint16 12-bit packbits, 64x64 chunks (${chunks})`, chunks, ms, usPerChunk: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, (1000 * v) / chunks])) });
  return out;
}
