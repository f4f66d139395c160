// read of a sharded store served by a real `python3 -m http.server` (the
// server people reach for first, which answers a Range request with the
// whole file, 200): read takes each shard whole and gives the values
// written, with FetchStore as it is and with useSuffixRequest, for an
// index at the end with its crc32c (as zarr-python writes it), at the
// start, and at the end without a crc32c. zarrita alone reads the whole
// file as the index and gives wrong values with no error; with the
// package registered, zarr.get refuses (the package's crc32c checks).
// Nothing is downloaded: python3 is the system's; the test is skipped
// where there is none.
//
// Requests go out 4 at a time: python's server keeps a backlog of 5
// connections (socketserver's request_queue_size), and a burst of more
// (zarr.get asks for every chunk at once) waits for the system's
// connection retries, seconds each, or is reset. That is the server's
// limit, not what this test is about (docs/where-it-runs.md).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as zarr from "zarrita";
import { read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";

const hasPython = spawnSync("python3", ["--version"]).status === 0;
const withPython = hasPython ? describe : describe.skip;

const side = 512;
const shape = [side, side];
const values = Uint16Array.from({ length: side * side }, (_, i) => ((i % side) * 3 + Math.floor(i / side) * 5 + ((i * 2654435761) >>> 28)) & 0xffff);
const s = zarr.slice;
const viewport = [s(64, 320), s(64, 320)];
let dir;
let python;
let url;
let honoursRange;

function expected([rows, cols]) {
  const out = [];
  for (let r = rows.start; r < rows.stop; r++) for (let c = cols.start; c < cols.stop; c++) out.push(values[r * side + c]);
  return out;
}

/** The files of the store: "/path/in/store" -> bytes. */
function storeFiles() {
  const files = new Map();
  const common = { values, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), compressors: ["gzip"] };
  // 4 shards of 256 x 256, each 16 inner chunks of 64 x 64.
  writeArray(files, "/end", { ...common, chunkShape: [256, 256], sharding: { chunkShape: [64, 64] } });
  writeArray(files, "/start", { ...common, chunkShape: [256, 256], sharding: { chunkShape: [64, 64], indexLocation: "start" } });
  writeArray(files, "/plain", { ...common, chunkShape: [64, 64] });
  // The end-index shards without their crc32c, and metadata that says so.
  for (const [key, bytes] of [...files]) {
    if (!key.startsWith("/end/")) continue;
    const to = key.replace("/end/", "/unchecked/");
    if (key.endsWith("zarr.json")) {
      const doc = JSON.parse(new TextDecoder().decode(bytes));
      doc.codecs[0].configuration.index_codecs = [{ name: "bytes", configuration: { endian: "little" } }];
      files.set(to, new TextEncoder().encode(JSON.stringify(doc)));
    } else files.set(to, bytes.subarray(0, bytes.length - 4));
  }
  return files;
}

/** fetch with at most `n` requests in flight. */
function limitedFetch(n) {
  let active = 0;
  const waiting = [];
  return async (request) => {
    if (active >= n) await new Promise((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      const response = await fetch(request);
      // The body read here, so the slot is given back once it is in.
      return new Response(await response.arrayBuffer(), { status: response.status, statusText: response.statusText, headers: response.headers });
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/** python3 -m http.server on 127.0.0.1, on a port the system gives: its URL. */
function startPython(root) {
  python = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root], { stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let out = "";
    python.once("error", reject);
    python.once("exit", (code) => reject(new Error(`python3 -m http.server exited (${code}) before serving: ${out}`)));
    python.stdout.on("data", (data) => {
      out += data;
      const port = /port (\d+)/.exec(out)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
  });
}

withPython("a sharded store served by python3 -m http.server", () => {
  beforeAll(async () => {
    await ready();
    dir = mkdtempSync(join(tmpdir(), "zcw-python-server-"));
    for (const [key, bytes] of storeFiles()) {
      mkdirSync(dirname(join(dir, key)), { recursive: true });
      writeFileSync(join(dir, key), bytes);
    }
    url = await startPython(dir);
    // What this python's server does with Range (3.11's ignores it).
    honoursRange = (await fetch(`${url}/end/zarr.json`, { headers: { Range: "bytes=0-0" } }).then((r) => r.arrayBuffer().then(() => r.status))) === 206;
  });
  afterAll(async () => {
    if (python && python.exitCode === null) {
      const exited = new Promise((resolve) => python.once("exit", resolve));
      python.kill();
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const open = (path, options) => zarr.open(zarr.root(new zarr.FetchStore(url, { ...options, fetch: limitedFetch(4) })).resolve(path), { kind: "array" });

  // zarrita alone first: nothing registered yet in this file's zarrita.
  test("zarrita alone: wrong values where the server ignores Range, with no error (the whole file read as the index)", async () => {
    for (const path of ["end", "unchecked"]) {
      const got = Array.from((await zarr.get(await open(path), viewport)).data);
      const want = expected(viewport);
      const wrong = got.filter((v, i) => v !== want[i]).length;
      if (honoursRange) expect(wrong).toBe(0);
      else expect(wrong).toBeGreaterThan(got.length / 2);
    }
  });

  test.each([
    ["end", {}],
    ["end", { useSuffixRequest: true }],
    ["start", {}],
    ["unchecked", {}],
    ["unchecked", { useSuffixRequest: true }],
    ["plain", {}],
  ])("read of the %s array (FetchStore options %j): the values written, a read again too", async (path, options) => {
    const arr = await open(path, options);
    expect(Array.from((await read(arr, viewport)).data)).toEqual(expected(viewport));
    expect(Array.from((await read(arr, [s(0, 512), s(448, 512)])).data)).toEqual(expected([s(0, 512), s(448, 512)]));
  });

  describe("with the package registered", () => {
    beforeAll(() => register(zarr.registry));

    test("zarr.get refuses where the whole file came for the index (the package's crc32c checks it), read reads right", async () => {
      const arr = await open("end");
      if (honoursRange) expect(Array.from((await zarr.get(arr, viewport)).data)).toEqual(expected(viewport));
      else await expect(zarr.get(arr, viewport)).rejects.toThrow(/crc32c/);
      expect(Array.from((await read(arr, viewport)).data)).toEqual(expected(viewport));
    });
  });
});
