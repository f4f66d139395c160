// What the spec-literal fixture writers (make-v3-fixtures.mjs,
// make-v3-records-fixtures.mjs) share: bytes from codes, the chunk grid and
// chunk keys as the Zarr v3 spec defines them, and the store folder they
// write. Written from the spec texts, never with this package's code.
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
