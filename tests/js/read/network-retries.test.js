// read's store calls retried where they fail for a reason that passes (a
// network error, HTTP 429, 500, 502, 503, 504), never after a 404 (a
// missing chunk, filled), a 403 or an abort; and a shard index that
// concurrent reads share fetched once even when one of them aborts.
// Failures are injected by a real loopback server
// (tests/js/support/network-server.mjs) behind zarrita's FetchStore, which
// counts every request it served; values are checked against the arrays
// written by hand (hand-store.js). Delays are 1 ms (baseDelayMs: 1), so
// nothing here waits on a clock.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { ZARRITAS } from "../support/zarritas.js";

const side = 256;
const shape = [side, side];
const values = Uint16Array.from({ length: side * side }, (_, i) => ((i % side) * 7 + Math.floor(i / side) * 3 + ((i * 2654435761) >>> 28)) & 0xffff);
const fast = { retries: 3, baseDelayMs: 1, maxDelayMs: 1 };
let server;
let files;

// Each test reads its own array, so the faults one test leaves queued
// never reach another.
const ARRAYS = ["plain", "p503", "p429", "p500", "p502", "p504", "preset", "down", "once", "forbidden", "abort", "holes", "sh503", "shrange", "shared", "shreset", "kept", ...ZARRITAS.flatMap(([v]) => [`v${v}`, `shv${v}`])];

beforeAll(async () => {
  await ready();
  for (const [, z] of ZARRITAS) register(z.registry);
  files = new Map();
  const common = { values, dataType: "uint16", shape, fillValue: 7, fillElement: Uint16Array.of(7), compressors: ["gzip"] };
  for (const name of ARRAYS) {
    if (name.startsWith("sh")) writeArray(files, `/${name}`, { ...common, chunkShape: [128, 128], sharding: { chunkShape: [64, 64] } });
    else writeArray(files, `/${name}`, { ...common, chunkShape: [64, 64], missing: name === "holes" ? (c) => c[0] === 1 && c[1] === 1 : undefined });
  }
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());

/**
 * The array at `path`, opened through FetchStore; `spy` (if given) hears
 * every getRange as it starts.
 */
async function open(path, spy) {
  const fetchStore = new zarr.FetchStore(server.url);
  const store = spy
    ? {
        url: fetchStore.url,
        get: (key, options) => fetchStore.get(key, options),
        getRange: (key, range, options) => {
          spy(key, range);
          return fetchStore.getRange(key, range, options);
        },
      }
    : fetchStore;
  return zarr.open(zarr.root(store).resolve(path), { kind: "array" });
}

/** The values of rows [r0, r1) and columns [c0, c1), from the array as written. */
function expected(r0, r1, c0, c1, fillWhere = () => false) {
  const out = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(fillWhere(r, c) ? 7 : values[r * side + c]);
  return out;
}

const s = zarr.slice;
/** What the server answered for `path`, in order. */
const statuses = (path) => server.requests().filter((r) => r.path === path).map((r) => `${r.method} ${r.status}`);

describe("transient failures are tried again", () => {
  test.each([
    ["503", "p503"],
    ["429", "p429"],
    ["500", "p500"],
    ["502", "p502"],
    ["504", "p504"],
  ])("HTTP %s then success: the chunk is fetched again and the values are right", async (status, name) => {
    const arr = await open(name);
    server.fail(`/${name}/c/1/1`, status);
    const got = await read(arr, [s(60, 140), s(60, 140)], { retry: fast });
    expect(Array.from(got.data)).toEqual(expected(60, 140, 60, 140));
    expect(statuses(`/${name}/c/1/1`)).toEqual([`GET ${status}`, "GET 200"]);
    // The chunks around it once each.
    expect(statuses(`/${name}/c/0/0`)).toEqual(["GET 200"]);
  });

  test("a connection reset (fetch's TypeError) then success: fetched again, values right", async () => {
    const arr = await open("preset");
    server.fail("/preset/c/2/3", "reset", "reset");
    const got = await read(arr, [s(100, 200), s(150, 256)], { retry: fast });
    expect(Array.from(got.data)).toEqual(expected(100, 200, 150, 256));
    // -1: the server dropped the connection.
    expect(statuses("/preset/c/2/3")).toEqual(["GET -1", "GET -1", "GET 200"]);
  });

  test("the default retries too (3, from 100 ms)", async () => {
    const arr = await open("plain");
    server.fail("/plain/c/0/1", "503");
    const got = await read(arr, [s(0, 64), s(64, 128)]);
    expect(Array.from(got.data)).toEqual(expected(0, 64, 64, 128));
    expect(statuses("/plain/c/0/1")).toEqual(["GET 503", "GET 200"]);
  });

  test("sharded: a failed index fetch (its HEAD) and a failed coalesced range are each fetched again", async () => {
    const arr = await open("sh503");
    server.fail("/sh503/c/0/1", "503");
    const first = await read(arr, [s(0, 128), s(128, 256)], { retry: fast });
    expect(Array.from(first.data)).toEqual(expected(0, 128, 128, 256));
    // FetchStore asks for the index at the end with a HEAD, then the range.
    expect(statuses("/sh503/c/0/1")).toEqual(["HEAD 503", "HEAD 200", "GET 206", "GET 206"]);
    server.reset();
    server.fail("/sh503/c/0/1", "503");
    const again = await read(arr, [s(0, 128), s(128, 256)], { retry: fast });
    expect(Array.from(again.data)).toEqual(expected(0, 128, 128, 256));
    // The index kept; the one coalesced request of the shard's 4 inner chunks fails once.
    expect(statuses("/sh503/c/0/1")).toEqual(["GET 503", "GET 206"]);
  });

  test("sharded with coalesce: false: each inner chunk's range is retried on its own", async () => {
    const arr = await open("shrange");
    await read(arr, [s(0, 1), s(0, 1)]); // the index of shard 0/0 kept
    server.reset();
    server.fail("/shrange/c/0/0", "500");
    const got = await read(arr, [s(0, 64), s(0, 128)], { retry: fast, coalesce: false });
    expect(Array.from(got.data)).toEqual(expected(0, 64, 0, 128));
    expect(statuses("/shrange/c/0/0").sort()).toEqual(["GET 206", "GET 206", "GET 500"]);
  });

  test("sharded: a reset connection while fetching an index is fetched again", async () => {
    const arr = await open("shreset");
    server.fail("/shreset/c/1/1", "reset");
    const got = await read(arr, [s(128, 256), s(128, 256)], { retry: fast });
    expect(Array.from(got.data)).toEqual(expected(128, 256, 128, 256));
    expect(statuses("/shreset/c/1/1")).toEqual(["HEAD -1", "HEAD 200", "GET 206", "GET 206"]);
  });
});

// Each zarrita's FetchStore says a status only in its message
// ("Unexpected response status 503 ..."): read finds it in each.
describe.each(ZARRITAS)("zarrita %s's FetchStore", (version, z) => {
  const opened = (path) => z.open(z.root(new z.FetchStore(server.url)).resolve(path), { kind: "array" });

  test("a 503 on an unsharded chunk, then a 429 and a 500 on a shard's index: each fetched again", async () => {
    const plain = await opened(`v${version}`);
    server.fail(`/v${version}/c/1/2`, "503");
    const got = await read(plain, [s(64, 128), s(100, 192)], { retry: fast });
    expect(Array.from(got.data)).toEqual(expected(64, 128, 100, 192));
    expect(statuses(`/v${version}/c/1/2`)).toEqual(["GET 503", "GET 200"]);

    const sharded = await opened(`shv${version}`);
    server.fail(`/shv${version}/c/1/0`, "429", "500");
    const inner = await read(sharded, [s(128, 256), s(0, 128)], { retry: fast });
    expect(Array.from(inner.data)).toEqual(expected(128, 256, 0, 128));
    // The index (a HEAD, then the range): 429 and 500 on the HEAD; then its 4 inner chunks in one range.
    expect(statuses(`/shv${version}/c/1/0`)).toEqual(["HEAD 429", "HEAD 500", "HEAD 200", "GET 206", "GET 206"]);
  });
});

describe("what is not tried again", () => {
  test("a 404 is a missing chunk: filled, asked once", async () => {
    const arr = await open("holes");
    const got = await read(arr, [s(32, 160), s(32, 160)], { retry: fast });
    const inHole = (r, c) => r >= 64 && r < 128 && c >= 64 && c < 128;
    expect(Array.from(got.data)).toEqual(expected(32, 160, 32, 160, inHole));
    expect(statuses("/holes/c/1/1")).toEqual(["GET 404"]);
  });

  test("a 403 fails the read as the store threw it, after one request", async () => {
    const arr = await open("forbidden");
    server.fail("/forbidden/c/0/0", "403");
    const error = await read(arr, [s(0, 64), s(0, 64)], { retry: fast }).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBeUndefined();
    expect(error.message).toMatch(/Unexpected response status 403/);
    expect(statuses("/forbidden/c/0/0")).toEqual(["GET 403"]);
  });

  test("a 500 that persists fails after exactly retries + 1 attempts, with FETCH_FAILED naming the key and the attempts", async () => {
    const arr = await open("down");
    server.fail("/down/c/0/0", ...Array(10).fill("500"));
    const error = await read(arr, [s(0, 64), s(0, 64)], { retry: { retries: 2, baseDelayMs: 1 } }).catch((e) => e);
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toContain("/down/c/0/0");
    expect(error.message).toContain("failed 3 times (HTTP 500, HTTP 500, HTTP 500)");
    expect(error.cause.message).toMatch(/^Unexpected response status 500/);
    expect(statuses("/down/c/0/0")).toEqual(["GET 500", "GET 500", "GET 500"]);
  });

  test("with chunkErrors: \"fill\", a chunk whose retries are spent is filled and listed with FETCH_FAILED", async () => {
    const arr = await open("kept");
    server.fail("/kept/c/0/1", ...Array(3).fill("503"));
    const got = await read(arr, [s(0, 64), s(32, 96)], { retry: { retries: 2, baseDelayMs: 1 }, chunkErrors: "fill" });
    expect(Array.from(got.data)).toEqual(expected(0, 64, 32, 96, (r, c) => c >= 64));
    expect(got.failedChunks.map((f) => [f.chunk, f.error.code])).toEqual([[[0, 1], "FETCH_FAILED"]]);
    expect(statuses("/kept/c/0/1")).toEqual(["GET 503", "GET 503", "GET 503"]);
  });

  test("retry: false fails at the first transient failure", async () => {
    const arr = await open("once");
    server.fail("/once/c/0/0", "503");
    const error = await read(arr, [s(0, 64), s(0, 64)], { retry: false }).catch((e) => e);
    expect(error.code).toBe("FETCH_FAILED");
    expect(error.message).toContain("failed once with HTTP 503 (retry: false)");
    expect(statuses("/once/c/0/0")).toEqual(["GET 503"]);
    // The fault was used up: the same read now reads.
    const got = await read(arr, [s(0, 64), s(0, 64)], { retry: false });
    expect(Array.from(got.data)).toEqual(expected(0, 64, 0, 64));
  });

  test("an abort during the backoff rejects with the abort's reason and makes no more requests", async () => {
    const arr = await open("abort");
    server.fail("/abort/c/0/0", "503");
    const controller = new AbortController();
    let failedOnce;
    const seen = new Promise((resolve) => {
      failedOnce = resolve;
    });
    // A backoff of up to 10^9 ms: the read waits in it until aborted.
    const reading = read(arr, [s(0, 64), s(0, 64)], { signal: controller.signal, retry: { retries: 3, baseDelayMs: 1e9, maxDelayMs: 1e9 } });
    const poll = setInterval(() => {
      if (statuses("/abort/c/0/0").length > 0) failedOnce();
    }, 5);
    try {
      await seen;
    } finally {
      clearInterval(poll);
    }
    const reason = new Error("the user panned away");
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
    await new Promise((r) => setTimeout(r, 20));
    expect(statuses("/abort/c/0/0")).toEqual(["GET 503"]);
  });
});

describe("a shard index shared by concurrent reads", () => {
  test("one read aborts while the index is on its way: the other reads its values and the index is fetched once", async () => {
    let indexStarted;
    const started = new Promise((resolve) => {
      indexStarted = resolve;
    });
    const arr = await open("shared", (key, range) => {
      if (key.endsWith("/c/1/0") && "suffixLength" in range) indexStarted();
    });
    await read(arr, [s(0, 1), s(0, 1)]); // the array's layout read (its zarr.json), shard 0/0's index kept
    server.reset();
    server.configure({ latencyMs: 30 });
    try {
      const controller = new AbortController();
      const a = read(arr, [s(128, 192), s(0, 64)], { signal: controller.signal });
      const b = read(arr, [s(192, 256), s(64, 128)]);
      await started;
      controller.abort(new Error("gone"));
      await expect(a).rejects.toThrow("gone");
      const got = await b;
      expect(Array.from(got.data)).toEqual(expected(192, 256, 64, 128));
    } finally {
      server.configure({ latencyMs: 0 });
    }
    const index = server.requests().filter((r) => r.path === "/shared/c/1/0" && (r.method === "HEAD" || r.bytes === 16 * 4 + 4));
    expect(index.map((r) => `${r.method} ${r.status}`)).toEqual(["HEAD 200", "GET 206"]);
  });
});

describe("the retry option is checked", () => {
  test.each([
    [5, "read: retry must be false or { retries, baseDelayMs, maxDelayMs }, got 5"],
    [null, "read: retry must be false or { retries, baseDelayMs, maxDelayMs }, got null"],
    [{ retries: -1 }, "read: retry.retries must be an integer >= 0, got -1"],
    [{ retries: 1.5 }, "read: retry.retries must be an integer >= 0, got 1.5"],
    [{ baseDelayMs: Number.NaN }, "read: retry.baseDelayMs must be a number of milliseconds >= 0, got NaN"],
    [{ maxDelayMs: "1s" }, 'read: retry.maxDelayMs must be a number of milliseconds >= 0, got "1s"'],
  ])("retry: %p is INVALID_INPUT", async (retry, message) => {
    const arr = await open("plain");
    const error = await read(arr, [s(0, 1), s(0, 1)], { retry }).catch((e) => e);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe(message);
  });
});
