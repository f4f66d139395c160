// A read pool when things go wrong, and around reads: hostile chunks give
// the error read gives on the calling thread (code and message); a worker
// terminated mid-read fails that read with WORKER_FAILED and is replaced;
// abort stops a read and nothing is written into `into` once it rejected;
// concurrent reads share the pool in turn; onProgress, pooled or not;
// options refused; and a Node process ends by itself after close(), and
// also without it.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import * as zarr from "zarrita";
import { createReadPool, read, ready, register, withDataTypes } from "../../../js/index.js";
import { POOL } from "../../../js/pool/read-pool.js";
import { writeArray } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { difference } from "../support/read-compare.js";
import { ROOT } from "../support/browser.js";
import { randomBytes } from "../support/reference.js";

jest.setTimeout(120000);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SHAPE = [96, 160];
const CHUNKS = [16, 32]; // 6 x 5 = 30 chunks

function image() {
  const raw = new Uint16Array(randomBytes(2 * SHAPE[0] * SHAPE[1], 31).buffer);
  return raw.map((v) => v & 0xfff);
}

async function arrayOf(c, { presented = false, change } = {}) {
  const map = new Map();
  writeArray(map, "/a", c);
  change?.(map);
  const base = memoryStore([...map]);
  return zarr.open(zarr.root(presented ? withDataTypes(base) : base).resolve("a"), { kind: "array" });
}

const packed = () => ({ shape: SHAPE, chunkShape: CHUNKS, dataType: "uint16", values: image(), fillValue: 0, fillElement: Uint16Array.of(0), arrayToBytes: { name: "packbits", bits: 12 } });

let pool;
beforeAll(async () => {
  await ready();
  register(zarr.registry);
  pool = createReadPool({ workers: 2, inThreadChunks: 0 });
});
afterAll(() => pool?.close());

async function rejectionOf(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("hostile chunks: the error read gives on the calling thread, word for word", () => {
  const cases = {
    "a truncated packbits chunk": [packed(), false, (map) => map.set("/a/c/1/2", map.get("/a/c/1/2").subarray(0, 100))],
    "a packbits chunk one byte long": [packed(), false, (map) => map.set("/a/c/0/0", new Uint8Array(map.get("/a/c/0/0").length + 1))],
    "a big-endian chunk of the wrong length": [
      { shape: SHAPE, chunkShape: CHUNKS, dataType: "int32", values: new Int32Array(SHAPE[0] * SHAPE[1]).map((_, i) => i), fillValue: 0, fillElement: Int32Array.of(0), arrayToBytes: { name: "bytes", endian: "big" } },
      false,
      (map) => map.set("/a/c/2/3", map.get("/a/c/2/3").subarray(3)),
    ],
    "a little-endian chunk of the wrong length (copied in place)": [
      { shape: SHAPE, chunkShape: CHUNKS, dataType: "float32", values: new Float32Array(SHAPE[0] * SHAPE[1]), fillValue: 0, fillElement: Float32Array.of(0) },
      false,
      (map) => map.set("/a/c/5/4", new Uint8Array(7)),
    ],
    "an int4 chunk through withDataTypes' stored codec": [
      { shape: SHAPE, chunkShape: CHUNKS, dataType: "int4", values: new Int8Array(SHAPE[0] * SHAPE[1]).map((_, i) => (i % 16) - 8), fillValue: 0, fillElement: Int8Array.of(0), arrayToBytes: { name: "packbits", bits: 4 } },
      true,
      (map) => map.set("/a/c/3/1", new Uint8Array(5)),
    ],
  };
  test.each(Object.keys(cases))("%s", async (name) => {
    const [c, presented, change] = cases[name];
    const arr = await arrayOf(c, { presented, change });
    const theirs = await rejectionOf(read(arr));
    expect(theirs.code).toBeDefined();
    for (const options of [{ pool }, { pool, useSharedArrayBuffer: true }]) {
      const ours = await rejectionOf(read(arr, null, options));
      expect({ name: ours.name, code: ours.code, message: ours.message }).toEqual({ name: theirs.name, code: theirs.code, message: theirs.message });
    }
    // The pool reads on.
    const good = await arrayOf(packed());
    expect(difference(await read(good, null, { pool }), await read(good))).toBe("");
  });
});

test("a worker terminated mid-read fails the read with WORKER_FAILED; the pool replaces it and reads on", async () => {
  const own = createReadPool({ workers: 2, inThreadChunks: 0 });
  try {
    // 8 rows of 8 chunks (a band each).
    const big = [512, 512];
    const arr = await arrayOf({ ...packed(), shape: big, chunkShape: [64, 64], values: Uint16Array.from({ length: big[0] * big[1] }, (_, i) => (i * 7) & 0xfff) });
    await read(arr, null, { pool: own }); // both workers started and warm
    const started = own.stats().started;
    // The first worker is terminated as the read posts it a job: that job
    // cannot have been done.
    const victim = own[POOL].slots()[0];
    const post = victim.endpoint.post;
    let killed = false;
    victim.endpoint.post = (message, transfer) => {
      post.call(victim.endpoint, message, transfer);
      if (message.type === "job" && !killed) {
        killed = true;
        victim.endpoint.handle.terminate();
      }
    };
    const error = await rejectionOf(read(arr, null, { pool: own }));
    expect(error.code).toBe("WORKER_FAILED");
    expect(error.message).toMatch(/^read: chunk c\/\d+\/0 of array \/a and the 7 other chunks of its band: the pool's worker decoding it failed \(it exited with code 1\)/);
    expect(own.stats().failed).toBe(1);
    const inThread = await read(arr);
    for (let i = 0; i < 2; i++) expect(difference(await read(arr, null, { pool: own }), inThread)).toBe("");
    expect(own.stats().started).toBe(started + 1);
    expect(own.stats().alive).toBe(2);
  } finally {
    await own.close();
  }
});

describe("abort: the read stops, and nothing reaches into after it rejected", () => {
  test.each([["a shared into", true], ["a plain into", false]])("%s", async (_, shared) => {
    const own = createReadPool({ workers: 2, inThreadChunks: 0 });
    try {
      const arr = await arrayOf(packed());
      const n = SHAPE[0] * SHAPE[1];
      const into = shared ? new Uint16Array(new SharedArrayBuffer(2 * n)) : new Uint16Array(n);
      into.fill(0xffff); // no 12-bit value
      const controller = new AbortController();
      let calls = 0;
      let settled = false;
      let late = 0;
      const error = await rejectionOf(read(arr, null, {
        pool: own,
        into,
        signal: controller.signal,
        onProgress: () => {
          if (settled) late += 1;
          if (++calls === 2) controller.abort();
        },
      }));
      settled = true;
      expect(error.name).toBe("AbortError");
      const snapshot = into.slice();
      await sleep(300); // whatever the workers still had
      expect(Buffer.compare(Buffer.from(into.buffer.slice(0)), Buffer.from(snapshot.buffer))).toBe(0);
      expect(late).toBe(0);
      // It stopped: chunks were left unwritten.
      expect(snapshot.includes(0xffff)).toBe(true);
      // An abort before the read starts is the signal's reason, as in-thread.
      const aborted = AbortSignal.abort();
      const theirs = await rejectionOf(read(arr, null, { signal: aborted }));
      expect(await rejectionOf(read(arr, null, { pool: own, signal: aborted }))).toBe(theirs);
      expect(difference(await read(arr, null, { pool: own }), await read(arr))).toBe("");
    } finally {
      await own.close();
    }
  });
});

test("concurrent reads share the pool in turn: a tile asked for during a whole read is not queued behind it", async () => {
  const own = createReadPool({ workers: 1, inThreadChunks: 0 });
  try {
    const big = await arrayOf({ ...packed(), shape: [512, 512], chunkShape: [32, 32], values: new Uint16Array(512 * 512).map((_, i) => i & 0xfff) });
    const other = await arrayOf({ shape: SHAPE, chunkShape: CHUNKS, dataType: "int16", values: new Int16Array(SHAPE[0] * SHAPE[1]).map((_, i) => -i), fillValue: 0, fillElement: Int16Array.of(0), arrayToBytes: { name: "bytes", endian: "big" } });
    await read(big, [zarr.slice(0, 32), zarr.slice(0, 32)], { pool: own });
    const order = [];
    const whole = read(big, null, { pool: own }).then((r) => (order.push("whole"), r));
    await sleep(0);
    const tile = read(big, [zarr.slice(256, 288), zarr.slice(256, 288)], { pool: own }).then((r) => (order.push("tile"), r));
    const another = read(other, [zarr.slice(1, null, 3), null], { pool: own }).then((r) => (order.push("other"), r));
    const [w, t, o] = await Promise.all([whole, tile, another]);
    expect(order.at(-1)).toBe("whole");
    expect(difference(w, await read(big))).toBe("");
    expect(difference(t, await read(big, [zarr.slice(256, 288), zarr.slice(256, 288)]))).toBe("");
    expect(difference(o, await read(other, [zarr.slice(1, null, 3), null]))).toBe("");
  } finally {
    await own.close();
  }
});

describe("onProgress", () => {
  test.each([["pooled", true], ["in-thread", false]])("%s: once per chunk placed, done counting up to total, none after the read settles", async (_, pooled) => {
    const arr = await arrayOf({ ...packed(), missing: (c) => c[0] === 2 });
    const calls = [];
    const selection = [zarr.slice(5, 90, 2), zarr.slice(10, 150)];
    const result = await read(arr, selection, { ...(pooled ? { pool } : {}), onProgress: (p) => calls.push(p) });
    const count = calls.length;
    expect(calls.map((c) => c.done)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    // Rows 5..89 touch chunk rows 0..5, columns 10..149 chunk columns 0..4.
    expect(count).toBe(6 * 5);
    expect(new Set(calls.map((c) => c.total))).toEqual(new Set([count]));
    expect(new Set(calls.map((c) => c.chunk.join(","))).size).toBe(count);
    for (const c of calls) expect(pooled ? Number.isInteger(c.worker) && c.worker >= 0 && c.worker < 2 : c.worker === null).toBe(true);
    await sleep(50);
    expect(calls.length).toBe(count);
    expect(difference(result, await read(arr, selection))).toBe("");
  });

  test.each([["pooled", true], ["in-thread", false]])("%s: a callback that throws fails the read with CALLBACK_FAILED, its error the cause", async (_, pooled) => {
    const arr = await arrayOf(packed());
    const thrown = new Error("the viewer broke");
    let calls = 0;
    const error = await rejectionOf(read(arr, null, { ...(pooled ? { pool } : {}), onProgress: () => { calls += 1; throw thrown; } }));
    expect(error.code).toBe("CALLBACK_FAILED");
    expect(error.message).toBe("read: onProgress threw: the viewer broke");
    expect(error.cause).toBe(thrown);
    await sleep(50);
    expect(calls).toBe(1);
  });
});

describe("options", () => {
  test("what is refused, before anything is read", async () => {
    const arr = await arrayOf(packed());
    await expect(read(arr, null, { pool: {} })).rejects.toMatchObject({ code: "INVALID_INPUT", message: "read: pool must come from createReadPool(), got an object" });
    await expect(read(arr, null, { onProgress: 3 })).rejects.toMatchObject({ code: "INVALID_INPUT", message: "read: onProgress must be a function, got 3" });
    for (const workers of [0, 1.5, "2", 1000]) {
      expect(() => createReadPool({ workers })).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    }
    expect(createReadPool().workers).toBeGreaterThanOrEqual(1);
  });

  // A closed pool stays closed: the message says what reads again.
  const CLOSED = "read: the read pool was closed: make a new one with createReadPool() for later reads, " +
    "or leave out the pool option to read on the calling thread";

  test("a closed pool: reads under way and later ones fail with WORKER_FAILED", async () => {
    const own = createReadPool({ workers: 1, inThreadChunks: 0 });
    const arr = await arrayOf(packed());
    const under = rejectionOf(read(arr, null, { pool: own }));
    await sleep(0);
    await own.close();
    expect(await under).toMatchObject({ code: "WORKER_FAILED", message: "read: the read pool was closed while this read used it" });
    await expect(read(arr, null, { pool: own })).rejects.toMatchObject({ code: "WORKER_FAILED", message: CLOSED });
  });

  test("a closed pool refuses the small reads it would have left to the calling thread, and one value", async () => {
    const own = createReadPool({ workers: 1 }); // inThreadChunks 4
    const arr = await arrayOf(packed());
    const tile = [zarr.slice(0, 16), zarr.slice(0, 32)]; // one chunk
    const tiled = await read(arr, tile, { pool: own });
    expect(own.stats()).toMatchObject({ reads: 1, inThread: 1, jobs: 0 });
    expect(difference(tiled, await zarr.get(arr, tile))).toBe("");
    await own.close();
    for (const selection of [tile, [3, 5]]) {
      await expect(read(arr, selection, { pool: own })).rejects.toMatchObject({ code: "WORKER_FAILED", message: CLOSED });
    }
    // and what the message offers reads: a new pool, or no pool
    const fresh = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      expect(difference(await read(arr, null, { pool: fresh }), await zarr.get(arr))).toBe("");
      expect(fresh.stats().inThread).toBe(0);
    } finally {
      await fresh.close();
    }
    expect(difference(await read(arr, tile), await zarr.get(arr, tile))).toBe("");
  });
});

describe("a Node process ends by itself", () => {
  const run = promisify(execFile);
  const script = (close) => `
    import * as zarr from "zarrita";
    import { createReadPool, read, register } from "./js/index.js";
    register(zarr.registry);
    const store = new Map();
    const arr = await zarr.create(zarr.root(store).resolve("a"), { shape: [64, 64], chunkShape: [16, 16], dtype: "uint16", codecs: [{ name: "bytes", configuration: { endian: "big" } }], fillValue: 0 });
    await zarr.set(arr, null, { data: new Uint16Array(4096).map((_, i) => i), shape: [64, 64], stride: [64, 1] });
    const pool = createReadPool({ workers: 2, inThreadChunks: 0 });
    const { data } = await read(arr, null, { pool });
    if (data[4095] !== 4095 || pool.stats().chunks !== 16) throw new Error("wrong");
    ${close ? "await pool.close();" : ""}
    console.log("read");
  `;
  test.each([["after close()", true], ["with the pool left open (idle workers do not hold it)", false]])("%s", async (_, close) => {
    const t0 = Date.now();
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script(close)], { cwd: ROOT, timeout: 30000 });
    expect(stdout.trim()).toBe("read");
    expect(Date.now() - t0).toBeLessThan(30000);
  });
});
