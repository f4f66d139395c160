// The benchmark's cases for zarr-python 3's byte types (issue 24): the
// vlen-bytes decode against JavaScript parsers of the same layout, and
// null_terminated_bytes read through withDataTypes against zarrita's own
// read of the same bytes as a v2 "|S" array. Each peer's output is checked
// equal to ours before it is timed.
import * as zarr from "zarrita";
import { VlenBytesCodec, withDataTypes } from "../js/index.js";
import { randomBytes } from "../tests/js/support/reference.js";

// ---- vlen-bytes peers ----------------------------------------------------------
// Each parser is written out whole, the layout checks repeated in each:
// a peer timed against wasm is the fastest JavaScript, and a shared walk
// with a callback per item would be a slower peer than a user would write.

function corrupt(what) {
  return new Error(`vlen-bytes (JS): ${what}`);
}

/**
 * Tuned, returning what the codec returns: one DataView pass that checks
 * the layout and notes each item's length, one buffer for the items'
 * bytes, then per item a copy (a byte loop for short ones, where
 * subarray() + set() costs more) and a view of that buffer.
 */
function parseToOneBuffer(src, n) {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const end = src.length;
  if (end < 4 || view.getUint32(0, true) !== n) throw corrupt("count");
  const lengths = new Uint32Array(n);
  let at = 4;
  for (let i = 0; i < n; i++) {
    if (end - at < 4) throw corrupt("length cut short");
    const length = view.getUint32(at, true);
    at += 4;
    if (length > end - at) throw corrupt("item past the end");
    lengths[i] = length;
    at += length;
  }
  if (at !== end) throw corrupt("bytes after the last item");
  const data = new Uint8Array(end - 4 - 4 * n);
  const buffer = data.buffer;
  const items = new Array(n);
  let from = 8;
  let to = 0;
  for (let i = 0; i < n; i++) {
    const length = lengths[i];
    if (length < 32) for (let k = 0; k < length; k++) data[to + k] = src[from + k];
    else data.set(src.subarray(from, from + length), to);
    items[i] = new Uint8Array(buffer, to, length);
    from += length + 4;
    to += length;
  }
  return items;
}

/** Plain: one DataView pass, each item a copy of its own (numcodecs' bytes objects). */
function parseToCopies(src, n) {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const end = src.length;
  if (end < 4 || view.getUint32(0, true) !== n) throw corrupt("count");
  const items = new Array(n);
  let at = 4;
  for (let i = 0; i < n; i++) {
    if (end - at < 4) throw corrupt("length cut short");
    const length = view.getUint32(at, true);
    at += 4;
    if (length > end - at) throw corrupt("item past the end");
    items[i] = src.slice(at, at + length);
    at += length;
  }
  if (at !== end) throw corrupt("bytes after the last item");
  return items;
}

/** One DataView pass, each item a subarray() view of the input itself (zero-copy: items alias the chunk's bytes). */
function parseToInputViews(src, n) {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const end = src.length;
  if (end < 4 || view.getUint32(0, true) !== n) throw corrupt("count");
  const items = new Array(n);
  let at = 4;
  for (let i = 0; i < n; i++) {
    if (end - at < 4) throw corrupt("length cut short");
    const length = view.getUint32(at, true);
    at += 4;
    if (length > end - at) throw corrupt("item past the end");
    items[i] = src.subarray(at, at + length);
    at += length;
  }
  if (at !== end) throw corrupt("bytes after the last item");
  return items;
}

/** The output alone: the items' buffer and a view per item, from lengths known beforehand (no parsing, no copying). */
function outputAlone(lengths, total) {
  const buffer = new ArrayBuffer(total);
  const items = new Array(lengths.length);
  for (let i = 0, at = 0; i < lengths.length; i++) {
    items[i] = new Uint8Array(buffer, at, lengths[i]);
    at += lengths[i];
  }
  return items;
}

// A chunk of about `size` bytes whose items are 0 .. 2 * mean bytes long.
function vlenChunk(size, mean, seed) {
  const noise = randomBytes(size, seed);
  const lengths = [];
  let total = 4;
  for (let i = 0; total + 4 + 2 * mean < size; i++) {
    const length = Math.floor((noise[i % noise.length] / 255) * 2 * mean);
    lengths.push(length);
    total += 4 + length;
  }
  const chunk = new Uint8Array(total);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, lengths.length, true);
  let at = 4;
  for (const [i, length] of lengths.entries()) {
    view.setUint32(at, length, true);
    chunk.set(noise.subarray(i % 97, (i % 97) + length), at + 4);
    at += 4 + length;
  }
  return { chunk, lengths: Uint32Array.from(lengths), itemBytes: total - 4 - 4 * lengths.length };
}

const hexes = (items) => items.map((d) => Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString("hex")).join(",");

/**
 * vlen-bytes decode of a chunk of `size` bytes, items of 16 and of 256
 * bytes on average: ours against the tuned parser returning the same
 * (views of one fresh buffer), plain per-item copies, views of the input,
 * and the output's own cost (the floor).
 */
export function vlenBytesCases(record, check, size) {
  for (const mean of [16, 256]) {
    const { chunk, lengths, itemBytes } = vlenChunk(size, mean, size + mean);
    const n = lengths.length;
    const codec = VlenBytesCodec.fromConfig(undefined, { dataType: "variable_length_bytes", shape: [n] });
    const ours = codec.decode(chunk).data;
    for (const [what, theirs] of [["one buffer", parseToOneBuffer], ["copies", parseToCopies], ["input views", parseToInputViews]]) {
      if (hexes(ours) !== hexes(theirs(chunk, n))) throw new Error(`bench: vlen-bytes (${what}): the peer's items differ from ours`);
    }
    check("vlen-bytes items", new Uint8Array(ours[0]?.buffer ?? new ArrayBuffer(0)), concatItems(parseToOneBuffer(chunk, n), itemBytes));
    record({ op: "vlen-bytes-decode", label: `${n} items of ${mean} bytes on average`, size }, {
      ours: () => codec.decode(chunk),
      tuned: () => parseToOneBuffer(chunk, n),
      plain: () => parseToCopies(chunk, n),
      inputViews: () => parseToInputViews(chunk, n),
      floor: () => outputAlone(lengths, itemBytes),
    });
  }
}

function concatItems(items, total) {
  const out = new Uint8Array(total);
  let at = 0;
  for (const item of items) {
    out.set(item, at);
    at += item.length;
  }
  return out;
}

// ---- null_terminated_bytes through withDataTypes ----------------------------------

/**
 * zarr.get of a null_terminated_bytes array through withDataTypes against
 * zarrita's own read of a v2 "|S" array holding the same chunk bytes (in
 * memory, uncompressed). Returns { shape, chunks, width, ms, ratio }.
 */
export async function byteStringReadCost({ quick, rounds }) {
  const width = 12;
  const shape = quick ? [256, 256] : [1024, 1024];
  const chunks = quick ? [128, 128] : [256, 256];
  const chunkBytes = chunks[0] * chunks[1] * width;
  const v3 = new Map();
  const v2 = new Map();
  v3.set("/s/zarr.json", new TextEncoder().encode(JSON.stringify({
    zarr_format: 3, node_type: "array", shape, data_type: { name: "null_terminated_bytes", configuration: { length_bytes: width } },
    chunk_grid: { name: "regular", configuration: { chunk_shape: chunks } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: "", codecs: [{ name: "bytes" }], attributes: {},
  })));
  v2.set("/s/.zarray", new TextEncoder().encode(JSON.stringify({
    zarr_format: 2, shape, chunks, dtype: `|S${width}`, fill_value: "", order: "C", filters: null, compressor: null,
  })));
  for (let i = 0; i < shape[0] / chunks[0]; i++) {
    for (let j = 0; j < shape[1] / chunks[1]; j++) {
      const bytes = randomBytes(chunkBytes, 100 * i + j);
      v3.set(`/s/c/${i}/${j}`, bytes);
      v2.set(`/s/${i}.${j}`, bytes);
    }
  }
  const ours = await zarr.open(zarr.root(withDataTypes(v3)).resolve("s"), { kind: "array" });
  const theirs = await zarr.open(zarr.root(v2).resolve("s"), { kind: "array" });
  const a = (await zarr.get(ours)).data;
  const b = (await zarr.get(theirs)).data;
  if (a.chars !== b.chars || Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) !== 0) {
    throw new Error("bench: null_terminated_bytes: withDataTypes' read differs from zarrita's |S read");
  }
  const timeAsync = async (fn, reps) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) await fn();
    return Number(process.hrtime.bigint() - t0) / reps;
  };
  const contenders = { ours: () => zarr.get(ours), zarrita: () => zarr.get(theirs) };
  for (const fn of Object.values(contenders)) await timeAsync(fn, 5); // warm up (JIT, first touch)
  const best = {};
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? Object.entries(contenders).reverse() : Object.entries(contenders);
    for (const [name, fn] of order) {
      globalThis.gc?.();
      best[name] = Math.min(best[name] ?? Infinity, await timeAsync(fn, quick ? 3 : 10));
    }
  }
  return { shape, chunks, width, ms: { ours: best.ours / 1e6, zarrita: best.zarrita / 1e6 }, ratio: best.ours / best.zarrita };
}
