// The benchmark's cases for records, strings and N5 blocks (issues 16, 17,
// 21 and 24), with their JavaScript peers: big-endian records of mixed
// field sizes (bytes), structFields' column split, big-endian fixed-width
// strings (zarrita's UnicodeStringArray, and withDataTypes' Array of
// strings), and N5 blocks (swap and transpose for withN5's axes "n5"; swap
// alone for axes "reversed"). Each peer's output is checked equal to ours
// before it is timed.
import * as zarr from "zarrita";
import { BytesCodec, N5DefaultCodec, structFields, withDataTypes } from "../js/index.js";
import { decodeBlockNow } from "../js/n5/n5-default-codec.js";
import { StringCodec } from "../js/data-types/string-codec.js";
import { randomBytes } from "../tests/js/support/reference.js";

// A record of mixed field sizes: int32, uint8, float64, int16, float32 (19 bytes).
export const RECORD = [
  ["a", "int32", 4], ["b", "uint8", 1], ["c", "float64", 8], ["d", "int16", 2], ["e", "float32", 4],
];
export const RECORD_BYTES = RECORD.reduce((n, [, , w]) => n + w, 0);
const STRUCT = { name: "struct", configuration: { fields: RECORD.map(([name, data_type]) => ({ name, data_type })) } };

// ---- peers -----------------------------------------------------------------------

/**
 * Big-endian records to little-endian ones: a DataView read and write per
 * field, through integer accessors (a float's getter would quiet a
 * signalling NaN's payload: not bit-exact).
 */
function recordsDataView(src, n) {
  const out = new Uint8Array(src.length);
  const s = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const d = new DataView(out.buffer);
  for (let r = 0, o = 0; r < n; r++, o += RECORD_BYTES) {
    d.setUint32(o, s.getUint32(o, false), true);
    d.setUint8(o + 4, s.getUint8(o + 4));
    d.setUint32(o + 5, s.getUint32(o + 9, false), true);
    d.setUint32(o + 9, s.getUint32(o + 5, false), true);
    d.setUint16(o + 13, s.getUint16(o + 13, false), true);
    d.setUint32(o + 15, s.getUint32(o + 15, false), true);
  }
  return out;
}

/** The same, another way: one copy, then each multi-byte field's bytes exchanged in place. */
function recordsSwapInPlace(src, n) {
  const a = src.slice();
  for (let r = 0, o = 0; r < n; r++, o += RECORD_BYTES) {
    let t = a[o]; a[o] = a[o + 3]; a[o + 3] = t; t = a[o + 1]; a[o + 1] = a[o + 2]; a[o + 2] = t;
    const c = o + 5;
    t = a[c]; a[c] = a[c + 7]; a[c + 7] = t; t = a[c + 1]; a[c + 1] = a[c + 6]; a[c + 6] = t;
    t = a[c + 2]; a[c + 2] = a[c + 5]; a[c + 5] = t; t = a[c + 3]; a[c + 3] = a[c + 4]; a[c + 4] = t;
    t = a[o + 13]; a[o + 13] = a[o + 14]; a[o + 14] = t;
    const e = o + 15;
    t = a[e]; a[e] = a[e + 3]; a[e + 3] = t; t = a[e + 1]; a[e + 1] = a[e + 2]; a[e + 2] = t;
  }
  return a;
}

/**
 * Little-endian records to columns, tuned: typed columns filled through one
 * DataView (floats through integer views of their columns, so NaN payloads
 * stay exact).
 */
function columnsDataView(src, n) {
  const s = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const a = new Int32Array(n), b = new Uint8Array(n), c = new Float64Array(n), d = new Int16Array(n), e = new Float32Array(n);
  const c32 = new Uint32Array(c.buffer), e32 = new Uint32Array(e.buffer);
  for (let r = 0, o = 0; r < n; r++, o += RECORD_BYTES) {
    a[r] = s.getInt32(o, true);
    b[r] = src[o + 4];
    c32[2 * r] = s.getUint32(o + 5, true);
    c32[2 * r + 1] = s.getUint32(o + 9, true);
    d[r] = s.getInt16(o + 13, true);
    e32[r] = s.getUint32(o + 15, true);
  }
  return { a, b, c, d, e };
}

/** Big-endian UTF-32 code units, tuned: 32-bit word swaps of an aligned copy. */
function utf32Words(src) {
  const n = src.length >> 2;
  const s = new Uint32Array(src.buffer, src.byteOffset, n);
  const d = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const x = s[i];
    d[i] = ((x << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24)) >>> 0;
  }
  return d;
}

/**
 * An N5 uint16 block (N5 order: dimension 0 fastest, big-endian) to the
 * chunk's C order: swap and transpose, in 32 x 32 tiles so both sides stay
 * in cache.
 */
function n5SwapTranspose(payload, d0, d1) {
  const src = new Uint16Array(payload.buffer, payload.byteOffset, d0 * d1);
  const out = new Uint16Array(d0 * d1);
  for (let t1 = 0; t1 < d1; t1 += 32) {
    for (let t0 = 0; t0 < d0; t0 += 32) {
      const e0 = Math.min(t0 + 32, d0), e1 = Math.min(t1 + 32, d1);
      for (let i0 = t0; i0 < e0; i0++) {
        for (let i1 = t1; i1 < e1; i1++) {
          const v = src[i0 + d0 * i1];
          out[i0 * d1 + i1] = ((v & 0xff) << 8) | (v >> 8);
        }
      }
    }
  }
  return out;
}

/**
 * An N5 uint16 block read with reversed axes: its F order is the chunk's C
 * order, so the peer is a plain swap of 16-bit words.
 */
function n5Swap(payload) {
  const src = new Uint16Array(payload.buffer, payload.byteOffset, payload.byteLength / 2);
  const out = new Uint16Array(src.length);
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    out[i] = ((v & 0xff) << 8) | (v >> 8);
  }
  return out;
}

// ---- cases -----------------------------------------------------------------------

const bytesOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * @param {(entry: object, contenders: object) => void} record the benchmark's
 * @param {(what: string, ours: ArrayBufferView, theirs: ArrayBufferView) => void} check
 * @param {number} size bytes of records
 */
export function recordCases(record, check, size) {
  const n = Math.floor(size / RECORD_BYTES);
  const stored = randomBytes(n * RECORD_BYTES, n);
  const ours = BytesCodec.fromConfig({ endian: "big" }, { dataType: STRUCT, shape: [n] });
  const decoded = ours.decode(stored).data;
  check("records (DataView)", decoded, recordsDataView(stored, n));
  check("records (swap in place)", decoded, recordsSwapInPlace(stored, n));
  const floorSrc = randomBytes(n * RECORD_BYTES, 3);
  record({ op: "records-be-decode", label: "int32 uint8 float64 int16 float32", size }, {
    ours: () => ours.decode(stored),
    // The DataView loop is the faster of the two (about 1.3x at 64 KiB).
    tuned: () => recordsDataView(stored, n),
    plain: () => recordsSwapInPlace(stored, n),
    floor: () => floorSrc.slice(),
  });
}

/** structFields of `size` bytes of little-endian records, through a real withDataTypes array. */
export async function columnCases(record, check, size) {
  const n = Math.floor(size / RECORD_BYTES);
  const store = new Map([["/r/zarr.json", new TextEncoder().encode(JSON.stringify({
    zarr_format: 3, node_type: "array", shape: [n], data_type: STRUCT,
    chunk_grid: { name: "regular", configuration: { chunk_shape: [n] } }, chunk_key_encoding: { name: "default" },
    fill_value: { a: 0, b: 0, c: 0, d: 0, e: 0 }, codecs: [{ name: "bytes", configuration: { endian: "little" } }], attributes: {},
  }))]]);
  const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("r"), { kind: "array" });
  const records = randomBytes(n * RECORD_BYTES, n + 1);
  const result = { data: records, shape: [n, RECORD_BYTES], stride: [RECORD_BYTES, 1] };
  const ours = structFields(result, arr);
  const theirs = columnsDataView(records, n);
  for (const [name] of RECORD) check(`structFields ${name}`, ours[name].data, theirs[name]);
  const floorSrc = randomBytes(n * RECORD_BYTES, 5);
  record({ op: "structFields", label: "int32 uint8 float64 int16 float32", size }, {
    ours: () => structFields(result, arr),
    tuned: () => columnsDataView(records, n),
    floor: () => floorSrc.slice(),
  });
}

/**
 * Big-endian fixed-width strings (16 code points) into zarrita's
 * UnicodeStringArray: ours (register's bytes codec) against zarrita's own.
 */
export function stringCases(record, check, size, { ours: OursBytes, zarrita: ZarritaBytes }) {
  const chars = 16;
  const n = Math.floor(size / (4 * chars));
  const stored = new Uint8Array(n * 4 * chars);
  const units = randomBytes(n * chars, 9);
  for (let i = 0; i < n * chars; i++) stored[4 * i + 3] = 0x20 + (units[i] % 90); // big-endian ASCII code points
  const meta = { dataType: `v2:U${chars}`, data_type: `v2:U${chars}`, shape: [n] };
  const ours = OursBytes.fromConfig({ endian: "big" }, meta);
  const plain = ZarritaBytes.fromConfig({ endian: "big" }, meta);
  const decoded = ours.decode(stored).data;
  check("utf32 (zarrita)", bytesOf(decoded), bytesOf(plain.decode(stored).data));
  check("utf32 (tuned)", bytesOf(decoded), utf32Words(stored));
  const floorSrc = randomBytes(stored.length, 7);
  record({ op: "strings-be-decode", label: `U${chars}`, size }, {
    ours: () => ours.decode(stored),
    plain: () => plain.decode(stored),
    tuned: () => utf32Words(stored),
    floor: () => floorSrc.slice(),
  });
}

/**
 * Big-endian fixed_length_utf32 of 16 code points, 1 to 16 used, as
 * withDataTypes presents it: an Array of JavaScript strings. Ours (the
 * stored codec: code units swapped and checked in wasm, then strings)
 * against zarrita's UnicodeStringArray with every string read once (what
 * 0.3.0's presentation cost a reader of every value; one that read none
 * paid only the swap, strings-be-decode above) and a tuned JS decode (a
 * word swap, then String.fromCodePoint per string).
 */
export function presentedStringCases(record, size, { zarrita: ZarritaBytes }) {
  const chars = 16;
  const n = Math.floor(size / (4 * chars));
  const stored = new Uint8Array(n * 4 * chars);
  const units = randomBytes(n * chars, 11);
  for (let s = 0; s < n; s++) {
    const used = 1 + (units[s * chars] % chars);
    for (let k = 0; k < used; k++) stored[4 * (s * chars + k) + 3] = 0x20 + (units[s * chars + k] % 90);
  }
  const dataType = { name: "fixed_length_utf32", configuration: { length_bytes: 4 * chars } };
  const ours = new StringCodec(BytesCodec.fromConfig({ endian: "big" }, { dataType, shape: [n] }), chars, [n]);
  const plain = ZarritaBytes.fromConfig({ endian: "big" }, { dataType: `v2:U${chars}`, data_type: `v2:U${chars}`, shape: [n] });
  const readEvery = (a) => Array.from({ length: a.length }, (_, i) => a.get(i));
  const tuned = () => {
    const words = utf32Words(stored);
    const out = new Array(n);
    for (let s = 0; s < n; s++) {
      let end = (s + 1) * chars;
      while (end > s * chars && words[end - 1] === 0) end--;
      out[s] = String.fromCodePoint.apply(null, words.subarray(s * chars, end));
    }
    return out;
  };
  const decoded = ours.decode(stored).data;
  for (const [peer, theirs] of [["zarrita", readEvery(plain.decode(stored).data)], ["tuned", tuned()]]) {
    if (decoded.length !== theirs.length || decoded.some((s, i) => s !== theirs[i])) {
      throw new Error(`bench: strings as JS strings (${peer}): the peer's output differs from ours`);
    }
  }
  const floorSrc = randomBytes(stored.length, 7);
  record({ op: "strings-presented-decode", label: `U${chars}`, size }, {
    ours: () => ours.decode(stored),
    plain: () => readEvery(plain.decode(stored).data),
    tuned,
    floor: () => floorSrc.slice(),
  });
}

/**
 * An N5 uint16 block of side x side (raw): the n5_default codec, with the
 * page's axes (swap and transpose) and reversed (swap alone), against a
 * plain big-endian bytes decode of the same size and a tuned JS swap-and-
 * transpose or swap.
 */
export function n5Cases(record, check, side) {
  const n = side * side;
  const values = randomBytes(2 * n, side);
  const block = new Uint8Array(12 + 2 * n);
  const v = new DataView(block.buffer);
  v.setUint16(2, 2);
  v.setUint32(4, side);
  v.setUint32(8, side);
  block.set(values, 12);
  const codec = new N5DefaultCodec(
    { codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, { name: "bytes", configuration: { endian: "big" } }] },
    { dataType: "uint16", shape: [side, side] },
  );
  const bytes = BytesCodec.fromConfig({ endian: "big" }, { dataType: "uint16", shape: [n] });
  const payload = block.subarray(12);
  check("n5 (tuned)", decodeBlockNow(codec, block).data, n5SwapTranspose(payload, side, side));
  const floorSrc = randomBytes(2 * n, 4);
  record({ op: "n5-decode", label: `uint16 ${side}x${side}`, size: 2 * n }, {
    ours: () => decodeBlockNow(codec, block),
    bytesBE: () => bytes.decode(payload),
    tuned: () => n5SwapTranspose(payload, side, side),
    floor: () => floorSrc.slice(),
  });
  // Axes reversed (withN5's default): the chain without the transpose.
  const reversed = new N5DefaultCodec(
    { codecs: [{ name: "bytes", configuration: { endian: "big" } }] },
    { dataType: "uint16", shape: [side, side] },
  );
  check("n5 reversed (bytes)", decodeBlockNow(reversed, block).data, bytes.decode(payload).data);
  check("n5 reversed (tuned)", decodeBlockNow(reversed, block).data, n5Swap(payload));
  record({ op: "n5-reversed-decode", label: `uint16 ${side}x${side}`, size: 2 * n }, {
    ours: () => decodeBlockNow(reversed, block),
    bytesBE: () => bytes.decode(payload),
    tuned: () => n5Swap(payload),
    floor: () => floorSrc.slice(),
  });
}
