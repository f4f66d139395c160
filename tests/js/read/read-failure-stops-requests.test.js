// A read that fails (one of its store calls gave up: FETCH_FAILED) has no
// one left to wait on its other store calls, yet they go on: each keeps
// its retries and backoffs, takes its scheduler's slots and reaches the
// server after the read rejected. Its signal never aborts (the read failed,
// it was not aborted), and read has no signal of its own to stop them. A
// call other reads still wait on (a shared index, a coalesced range, a
// cached chunk) must go on for them; the failed read's own must stop, and
// its waiting ones be dropped unsent, as an aborted read's are.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadScheduler, read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const values = Uint16Array.from({ length: 256 * 256 }, (_, i) => (i * 3 + 7) & 0xffff);
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  writeArray(files, "/s", { values, dataType: "uint16", shape: [256, 256], chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [32, 32] } });
  server = await startNetworkServer(files, { latencyMs: 5 });
});
afterAll(() => server?.close());

test.each([false, true])("a read that failed sends no request after it rejects (scheduler: %s)", async (scheduled) => {
  const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url, { useSuffixRequest: true })).resolve("s"), { kind: "array" });
  await read(arr, [zarr.slice(0, 1), zarr.slice(0, 1)]); // shard c/0/0's index kept
  const scheduler = scheduled ? createReadScheduler({ maxRequests: 2 }) : undefined;
  server.reset();
  // Shard c/0/0 answers 503 (a transient failure, retried) for a while.
  server.fail("/s/c/0/0", ...new Array(12).fill("503"));
  // Inner chunks (0, 1), (0, 2), (0, 3) of c/0/0, one request each.
  const reading = read(arr, [zarr.slice(0, 32), zarr.slice(32, 128)], { coalesce: false, scheduler, retry: { retries: 2, baseDelayMs: 100, maxDelayMs: 100 } });
  await expect(reading).rejects.toMatchObject({ code: "FETCH_FAILED" });
  const rejectedAt = performance.now();
  await new Promise((r) => setTimeout(r, 600));
  server.clearFaults("/s/c/0/0");
  // By when each request arrived (the server logs a request when it has
  // answered it: one sent just before the rejection may be logged after).
  expect(server.requests().filter((q) => q.startMs > rejectedAt)).toEqual([]);
  if (scheduler) expect(scheduler.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
});
