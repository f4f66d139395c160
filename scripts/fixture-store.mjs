// What the spec-literal fixture writers (make-v3-fixtures.mjs,
// make-v3-records-fixtures.mjs) share: bytes from codes, the chunk grid,
// a chunk's elements and their transposition, and chunk keys as the Zarr v3
// spec defines them, and the store folder they write. Written from the spec texts, never with this package's code.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** `code` (a number or BigInt, any sign) as `bytes` little-endian bytes. */
export function codeBytes(code, bytes) {
  const out = new Uint8Array(bytes);
  let v = BigInt.asUintN(8 * bytes, BigInt(code));
  for (let i = 0; i < bytes; i++, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** The byte arrays one after another. */
export function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Flat C-order index -> multi-index of `shape`. */
export function unravel(i, shape) {
  const idx = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    idx[d] = i % shape[d];
    i = Math.floor(i / shape[d]);
  }
  return idx;
}

/**
 * The chunk at `coords` in C order: the array's `elements` (C order over
 * `shape`), and `fill` past the array's edge.
 */
export function chunkElements(elements, shape, fill, coords, chunkShape) {
  return Array.from({ length: chunkShape.reduce((x, y) => x * y, 1) }, (_, i) => {
    const idx = unravel(i, chunkShape).map((v, d) => coords[d] * chunkShape[d] + v);
    if (!idx.every((v, d) => v < shape[d])) return fill;
    return elements[idx.reduce((acc, v, d) => acc * shape[d] + v, 0)];
  });
}

/** The transpose codec's encode: element j is the chunk element at the permuted index. */
export function transposeElements(elements, shape, order) {
  const tshape = order.map((o) => shape[o]);
  return elements.map((_, j) => {
    const tidx = unravel(j, tshape);
    const idx = new Array(shape.length);
    tidx.forEach((v, d) => (idx[order[d]] = v));
    return elements[idx.reduce((acc, v, d) => acc * shape[d] + v, 0)];
  });
}

/** Every chunk's grid coordinates, in C order. */
export function gridOf(shape, chunkShape) {
  const counts = shape.map((s, d) => Math.ceil(s / chunkShape[d]));
  const all = [];
  const walk = (d, prefix) => {
    if (d === counts.length) return all.push(prefix);
    for (let i = 0; i < counts[d]; i++) walk(d + 1, [...prefix, i]);
  };
  walk(0, []);
  return all;
}

/**
 * A fixture array's zarr.json, keys in the spec's order: `a` gives shape,
 * dataType, chunkShape, codecs and its chunk_key_encoding (`encoding`,
 * default "/"), `extra` any keys after attributes.
 */
export function arrayMeta(a, fillValue, attributes, extra = {}) {
  return {
    zarr_format: 3,
    node_type: "array",
    shape: a.shape,
    data_type: a.dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: a.chunkShape } },
    chunk_key_encoding: a.encoding ?? { name: "default", configuration: { separator: "/" } },
    fill_value: fillValue,
    codecs: a.codecs,
    attributes,
    ...extra,
  };
}

/** The key of the chunk at `coords` by the array's chunk_key_encoding. */
export function chunkKey(meta, coords) {
  const { name, configuration } = meta.chunk_key_encoding;
  const sep = configuration?.separator ?? (name === "v2" ? "." : "/");
  return name === "default" ? ["c", ...coords].join(sep) : coords.join(sep) || "0";
}

/** Empties `root` and returns write(key, bytes) into it. */
export function storeWriter(root) {
  rmSync(root, { recursive: true, force: true });
  return (key, bytes) => {
    const path = `${root}/${key}`;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  };
}

/** The root group's zarr.json with its arrays' metadata consolidated inline. */
export function consolidatedGroup(metadata) {
  return {
    zarr_format: 3,
    node_type: "group",
    attributes: {},
    consolidated_metadata: { kind: "inline", must_understand: false, metadata },
  };
}
