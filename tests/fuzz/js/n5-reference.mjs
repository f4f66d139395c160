// The N5 fuzzer's reference: how an N5 array reads, written from the N5
// spec (attributes.json, block header, big-endian values with the first
// dimension fastest), the n5_default codec page (step 4: pad with the fill
// value 0 or truncate to the chunk) and docs/n5.md (the compressions and
// members withN5 reads, the 512 MiB bounds), with none of the package's
// code; and the compressors zarr-python 2 reads N5 with (numcodecs' GZip,
// Zlib, Blosc, Zstd), in a Python child process (n5-reference.py).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const WIDTH = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, uint64: 8, int64: 8, float32: 4, float64: 8 };
const MAX_BYTES = 512 * 1024 * 1024;
const UNREADABLE = ["bzip2", "xz", "lz4", "jpeg"];
const CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];
const int = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;
const plainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The Python decompressors, one child process at a time. A request that
 * gets no answer (the process died: numcodecs' C code can crash on hostile
 * blosc data, which is the reference's failure, not the package's) answers
 * { crashed } for each block, and a new process takes over.
 */
export class Decompressors {
  #child;
  #pending = new Map();
  #next = 0;
  crashes = 0;

  constructor() {
    this.#start();
  }

  #start() {
    const script = fileURLToPath(new URL("n5-reference.py", import.meta.url));
    const child = spawn("/usr/bin/python3", [script], { stdio: ["pipe", "pipe", "ignore"] });
    this.#child = child;
    createInterface({ input: child.stdout }).on("line", (line) => {
      const { id, results } = JSON.parse(line);
      this.#pending.get(id)?.(results);
      this.#pending.delete(id);
    });
    child.on("exit", () => {
      if (this.#child !== child) return;
      this.#child = undefined;
      for (const [id, resolve] of this.#pending) {
        this.crashes++;
        resolve(null);
        this.#pending.delete(id);
      }
    });
    child.stdin.on("error", () => {}); // a write to a process that died: answered by "exit"
  }

  /** [[name, bytes], ...] -> [{ ok: Uint8Array } | { error: string } | { crashed: true }, ...] */
  decompress(blocks) {
    if (blocks.length === 0) return Promise.resolve([]);
    if (!this.#child) this.#start();
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, (results) =>
        resolve(
          results === null
            ? blocks.map(() => ({ crashed: true }))
            : results.map((r) => (r.ok !== undefined ? { ok: new Uint8Array(Buffer.from(r.ok, "base64")) } : r)),
        ),
      );
      const request = { id, blocks: blocks.map(([name, bytes]) => [name, Buffer.from(bytes).toString("base64")]) };
      const child = this.#child;
      child.stdin.write(`${JSON.stringify(request)}\n`);
      // No answer in 20 s: the process is stopped, and "exit" answers.
      setTimeout(() => {
        if (this.#pending.has(id)) child.kill("SIGKILL");
      }, 20000).unref();
    });
  }

  close() {
    this.#child?.stdin.end();
  }
}

/**
 * What attributes.json makes of an array: { refused } (withN5 refuses it
 * at open), or { dims, blockSize, dataType, width, compressor } where
 * compressor is "raw", "gzip", "zlib", "blosc" or "zstd".
 */
export function referenceMetadata(attributes) {
  if (!plainObject(attributes) || !("dimensions" in attributes) || !("dataType" in attributes)) return { group: true };
  const { dimensions: dims, blockSize, dataType } = attributes;
  const shape = (s, least) => Array.isArray(s) && s.length <= 64 && s.every((d) => Number.isSafeInteger(d) && d >= least);
  if (!shape(dims, 0)) return { refused: "dimensions" };
  if (dims.reduce((a, b) => a * b, 1) > 2 ** 53 - 1) return { refused: "dimensions past 2^53 elements" };
  if (!shape(blockSize, 1)) return { refused: "blockSize" };
  if (blockSize.length !== dims.length) return { refused: "blockSize rank" };
  if (blockSize.reduce((a, b) => a * b, 1) > 2 ** 53 - 1) return { refused: "blockSize past 2^53 elements" };
  if (!(typeof dataType === "string" && dataType in WIDTH && Object.hasOwn(WIDTH, dataType))) return { refused: "dataType" };
  if (blockSize.reduce((a, b) => a * b, WIDTH[dataType]) > MAX_BYTES) return { refused: "a chunk past 512 MiB" };
  const compression = attributes.compression ?? (typeof attributes.compressionType === "string" ? { type: attributes.compressionType } : undefined);
  if (!plainObject(compression) || typeof compression.type !== "string") return { refused: "compression" };
  const has = (name) => name in compression;
  const bad = (name, ok) => has(name) && !ok(compression[name]);
  let compressor;
  switch (compression.type) {
    case "raw":
      compressor = "raw";
      break;
    case "gzip":
      if (bad("level", (v) => int(v, -1, 9)) || bad("useZlib", (v) => typeof v === "boolean")) return { refused: "gzip member" };
      compressor = compression.useZlib === true ? "zlib" : "gzip";
      break;
    case "blosc":
      if (bad("cname", (v) => CNAMES.includes(v)) || bad("clevel", (v) => int(v, 0, 9)) || bad("shuffle", (v) => int(v, 0, 2)) ||
          bad("blocksize", (v) => int(v, 0, 2 ** 31 - 1))) {
        return { refused: "blosc member" };
      }
      compressor = "blosc";
      break;
    case "zstd":
      if (bad("level", (v) => int(v, -(2 ** 17), 22))) return { refused: "zstd member" };
      compressor = "zstd";
      break;
    default:
      return { refused: UNREADABLE.includes(compression.type) ? "a compression with no Zarr codec" : "an unknown compression" };
  }
  return { dims, blockSize, dataType, width: WIDTH[dataType], compressor };
}

/** A block's header and payload as N5 lays them out, or { error }. */
export function parseBlock(bytes, rank) {
  if (bytes.length < 4) return { error: "header" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint16(0) !== 0) return { error: "mode" };
  if (view.getUint16(2) !== rank) return { error: "rank" };
  if (bytes.length < 4 + 4 * rank) return { error: "header" };
  const header = Array.from({ length: rank }, (_, k) => view.getUint32(4 + 4 * k));
  return { header, payload: bytes.subarray(4 + 4 * rank) };
}

/**
 * The values of the box [0, extent) of the array (N5 order), little-endian,
 * in C order of N5's dimensions, or { error } where a block the box needs
 * is refused. `blocks`: N5 key -> the block's bytes (undefined: missing);
 * `decompressed`: N5 key -> the Python answer for its payload.
 */
export function referenceRead(meta, extent, blocks, decompressed) {
  const { blockSize, width: w } = meta;
  const rank = extent.length;
  const count = extent.reduce((a, b) => a * b, 1);
  const out = new Uint8Array(count * w);
  if (count === 0) return { values: out };
  const chunks = new Map(); // key -> { header, data } | { error }
  const chunkOf = (key) => {
    if (chunks.has(key)) return chunks.get(key);
    let entry;
    const bytes = blocks.get(key);
    if (bytes === undefined) {
      entry = { missing: true };
    } else {
      const parsed = parseBlock(bytes, rank);
      if (parsed.error) {
        entry = parsed;
      } else {
        const { header, payload } = parsed;
        let implied = header.includes(0) ? 0 : w;
        for (const d of header) implied = implied <= MAX_BYTES ? implied * d : implied;
        if (implied > MAX_BYTES) {
          entry = { error: "a header past 512 MiB" };
        } else {
          let data = payload;
          if (meta.compressor !== "raw") {
            const answer = decompressed.get(key);
            data = answer?.ok;
            if (!data) entry = { error: `${meta.compressor}: ${answer?.error}`, compressor: true };
          }
          if (!entry) entry = data.length === implied ? { header, data } : { error: "payload length" };
        }
      }
    }
    chunks.set(key, entry);
    return entry;
  };
  const index = new Array(rank).fill(0);
  for (let e = 0; e < count; e++) {
    let rem = e;
    for (let k = rank - 1; k >= 0; k--) {
      index[k] = rem % extent[k];
      rem = Math.floor(rem / extent[k]);
    }
    const key = index.map((x, k) => Math.floor(x / blockSize[k])).join("/");
    const chunk = chunkOf(key);
    if (chunk.error) return { error: chunk.error, compressor: chunk.compressor === true };
    if (chunk.missing) continue; // 0
    const local = index.map((x, k) => x % blockSize[k]);
    if (local.some((l, k) => l >= chunk.header[k])) continue; // padded with 0
    let at = 0;
    for (let k = rank - 1; k >= 0; k--) at = at * chunk.header[k] + local[k];
    for (let b = 0; b < w; b++) out[e * w + b] = chunk.data[at * w + (w - 1 - b)];
  }
  return { values: out };
}

/** C-order bytes of shape `dims` with the axes reversed (numpy's view of an N5 array). */
export function reverseAxes(bytes, dims, w) {
  const rank = dims.length;
  const count = dims.reduce((a, b) => a * b, 1);
  const out = new Uint8Array(bytes.length);
  const rdims = [...dims].reverse();
  const index = new Array(rank).fill(0);
  for (let e = 0; e < count; e++) {
    let rem = e;
    for (let k = rank - 1; k >= 0; k--) {
      index[k] = rem % dims[k];
      rem = Math.floor(rem / dims[k]);
    }
    let at = 0;
    for (let k = 0; k < rank; k++) at = at * rdims[k] + index[rank - 1 - k];
    out.set(bytes.subarray(e * w, e * w + w), at * w);
  }
  return out;
}
