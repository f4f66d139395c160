// Zarr v3 arrays written by hand, for read's tests: the metadata as the
// spec writes it and every chunk encoded by the references of this folder
// (byte swaps, packbits bit by bit, node's zlib for gzip and zlib, CRC-32C
// bit by bit, shard indexes laid out by hand), never by the package. The
// values are known, so a read can be checked against them directly.
import { deflateSync, gzipSync } from "node:zlib";
import { shard } from "./memory-store.js";
import { cOrder } from "./read-compare.js";
import { bytesOf, crc32c, packBitsEncodeReference, swapGroups } from "./reference.js";

const encoder = new TextEncoder();


const product = (values) => values.reduce((a, b) => a * b, 1);

/**
 * The chunk at `coords` of `values` (C order, `shape`), of `chunkShape`,
 * its axes stored in `order` (a transpose: stored axis j is axis order[j]),
 * elements past the array's edge set to `fill` (one element's bytes).
 */
function chunkBytes(values, shape, chunkShape, coords, order, fill) {
  const eb = values.BYTES_PER_ELEMENT;
  const src = bytesOf(values);
  const stored = order.map((axis) => chunkShape[axis]);
  const n = product(chunkShape);
  const out = new Uint8Array(n * eb);
  const arrayStride = cOrder(shape);
  const index = new Array(stored.length).fill(0);
  for (let e = 0; e < n; e++) {
    // index[j] runs over stored axis j = array axis order[j].
    let at = 0;
    let inside = true;
    for (let j = 0; j < stored.length; j++) {
      const axis = order[j];
      const global = coords[axis] * chunkShape[axis] + index[j];
      if (global >= shape[axis]) inside = false;
      at += global * arrayStride[axis];
    }
    out.set(inside ? src.subarray(at * eb, at * eb + eb) : fill, e * eb);
    for (let j = stored.length - 1; j >= 0 && ++index[j] === stored[j]; j--) index[j] = 0;
  }
  return out;
}

function encodeArrayToBytes(raw, eb, arrayToBytes) {
  if (arrayToBytes.name === "bytes") return arrayToBytes.endian === "big" ? swapGroups(raw, eb) : raw;
  // packbits: { name: "packbits", firstBit, bits, isBool }
  return packBitsEncodeReference({ containerBytes: eb, firstBit: arrayToBytes.firstBit ?? 0, bits: arrayToBytes.bits, isBool: arrayToBytes.isBool }, raw);
}

function compress(bytes, names) {
  for (const name of names) {
    if (name === "gzip") bytes = new Uint8Array(gzipSync(bytes));
    else if (name === "zlib") bytes = new Uint8Array(deflateSync(bytes));
    else if (name === "crc32c") {
      const out = new Uint8Array(bytes.length + 4);
      out.set(bytes);
      new DataView(out.buffer).setUint32(bytes.length, crc32c(bytes), true);
      bytes = out;
    } else throw new Error(`hand-store: no encoder for ${name}`);
  }
  return bytes;
}

function codecEntries(order, arrayToBytes, compressors) {
  const codecs = [];
  if (order.some((v, i) => v !== i)) codecs.push({ name: "transpose", configuration: { order } });
  if (arrayToBytes.name === "bytes") codecs.push({ name: "bytes", configuration: arrayToBytes.endian ? { endian: arrayToBytes.endian } : {} });
  else {
    const c = { last_bit: (arrayToBytes.firstBit ?? 0) + arrayToBytes.bits - 1 };
    if (arrayToBytes.firstBit) c.first_bit = arrayToBytes.firstBit;
    codecs.push({ name: "packbits", configuration: c });
  }
  for (const name of compressors) codecs.push(name === "crc32c" ? { name } : { name, configuration: { level: 1 } });
  return codecs;
}

/**
 * Writes an array into `store` (a Map) at `path`.
 * @param {Map<string, Uint8Array>} store
 * @param {string} path "/name"
 * @param {object} a
 * @param {ArrayBufferView} a.values C order
 * @param {string} a.dataType
 * @param {number[]} a.shape
 * @param {number[]} a.chunkShape   the grid's chunks (a shard's shape where sharded)
 * @param {unknown} a.fillValue
 * @param {ArrayBufferView} a.fillElement the fill as one element (padding at edges)
 * @param {number[]} [a.order]      a transpose
 * @param {object} [a.arrayToBytes] { name: "bytes", endian } or { name: "packbits", bits, firstBit, isBool }
 * @param {string[]} [a.compressors] gzip, zlib, crc32c
 * @param {{chunkShape: number[]}} [a.sharding] inner chunks (the index at the end, with a crc32c)
 * @param {(coords: number[]) => boolean} [a.missing] chunks (inner chunks where sharded) left out
 */
export function writeArray(store, path, a) {
  const rank = a.shape.length;
  const order = a.order ?? Array.from({ length: rank }, (_, i) => i);
  const arrayToBytes = a.arrayToBytes ?? { name: "bytes", endian: "little" };
  const compressors = a.compressors ?? [];
  const eb = a.values.BYTES_PER_ELEMENT;
  const fill = bytesOf(a.fillElement);
  const innerShape = a.sharding ? a.sharding.chunkShape : a.chunkShape;
  const chain = codecEntries(order, arrayToBytes, compressors);
  const encode = (coords) => compress(encodeArrayToBytes(chunkBytes(a.values, a.shape, innerShape, coords, order, fill), eb, arrayToBytes), compressors);
  const grid = a.shape.map((d, i) => Math.ceil(d / a.chunkShape[i]));
  const key = (coords) => `${path}/c/${coords.join("/")}`;
  const missing = a.missing ?? (() => false);
  const each = (counts, visit) => {
    const index = new Array(counts.length).fill(0);
    if (counts.some((c) => c === 0)) return;
    while (true) {
      visit(index.slice());
      let i = counts.length - 1;
      while (i >= 0 && ++index[i] === counts[i]) index[i--] = 0;
      if (i < 0) return;
    }
  };
  let codecs = chain;
  if (a.sharding) {
    const per = a.chunkShape.map((d, i) => d / innerShape[i]);
    const indexCodecs = [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }];
    const indexAt = a.sharding.indexLocation ?? "end";
    codecs = [{ name: "sharding_indexed", configuration: { chunk_shape: innerShape, codecs: chain, index_codecs: indexCodecs, index_location: indexAt } }];
    each(grid, (at) => {
      // Inner chunks past the array's edge, and missing ones, are absent.
      const chunks = [];
      each(per, (local) => {
        const coords = at.map((s, i) => s * per[i] + local[i]);
        const inside = coords.every((c, i) => c * innerShape[i] < a.shape[i]);
        chunks.push(inside && !missing(coords) ? encode(coords) : null);
      });
      store.set(key(at), shard(chunks, { indexAt }));
    });
  } else {
    each(grid, (coords) => {
      if (!missing(coords)) store.set(key(coords), encode(coords));
    });
  }
  const doc = {
    zarr_format: 3,
    node_type: "array",
    shape: a.shape,
    data_type: a.dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: a.chunkShape } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: a.fillValue,
    codecs,
  };
  store.set(`${path}/zarr.json`, encoder.encode(JSON.stringify(doc)));
  return doc;
}

/**
 * The values a selection of `values` (C order, `shape`) gives, computed
 * element by element: the reference for read. `selection` per axis: an
 * integer or [start, stop, step] (already within bounds).
 */
export function selectReference(values, shape, selection) {
  const stride = cOrder(shape);
  const axes = shape.map((n, i) => {
    const s = selection?.[i] ?? [0, n, 1];
    if (typeof s === "number") return [s];
    const out = [];
    for (let v = s[0]; v < s[1]; v += s[2]) out.push(v);
    return out;
  });
  const outShape = axes.filter((_, i) => typeof selection?.[i] !== "number").map((a) => a.length);
  const n = product(axes.map((a) => a.length));
  const out = new values.constructor(n);
  const index = new Array(shape.length).fill(0);
  for (let k = 0; k < n; k++) {
    out[k] = values[index.reduce((at, v, i) => at + axes[i][v] * stride[i], 0)];
    for (let i = shape.length - 1; i >= 0 && ++index[i] === axes[i].length; i--) index[i] = 0;
  }
  return { data: out, shape: outShape };
}

