// The loopback server's emulation of a user's link
// (tests/js/support/network-server.mjs), which the network benchmarks
// (bench/network.mjs --rate, bench/session.mjs) measure on: one link of R
// bytes a second shared by every answer being sent, bytes arriving over
// time after the round trip; a request whose client aborted while it
// waited for its turn or its round trip dropped, never served; an answer
// whose client aborted stopped. Checked with Node's own fetch against the
// real server, in wall time with generous bounds (this tests the emulator,
// not anyone's speed), expected times worked out from the rate by hand.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { startNetworkServer } from "../support/network-server.mjs";

const KB = 1000;
const ONE = "/one";
const BIG = "/big";
const body = (n) => Uint8Array.from({ length: n }, (_, i) => (i * 7) & 255);
const files = new Map([
  [ONE, body(100 * KB)],
  [BIG, body(2000 * KB)],
]);

let server;
beforeAll(async () => {
  server = await startNetworkServer(files);
});
afterAll(async () => {
  await server?.close();
});

/** The body of `path` read as it arrives: its bytes, and when (ms after t0) each piece came. */
async function fetchPieces(path, t0, init) {
  const response = await fetch(`${server.url}${path}`, init);
  const reader = response.body.getReader();
  const pieces = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push({ at: performance.now() - t0, value });
  }
  const bytes = new Uint8Array(pieces.reduce((n, p) => n + p.value.length, 0));
  let at = 0;
  for (const p of pieces) {
    bytes.set(p.value, at);
    at += p.value.length;
  }
  return { bytes, pieces };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("a link of 1 MB/s shared: 3 answers of 100 KB at once take ~300 ms in all, each a third of the link, bytes arriving over time", async () => {
  server.reset();
  server.configure({ latencyMs: 20, maxConcurrent: Infinity, rateBytesPerSec: 1000 * KB });
  try {
    const t0 = performance.now();
    const got = await Promise.all([0, 1, 2].map(() => fetchPieces(ONE, t0)));
    const ms = performance.now() - t0;
    // 300 KB at 1 MB/s: 300 ms on the link, after one round trip of 20 ms.
    expect(ms).toBeGreaterThan(300);
    expect(ms).toBeLessThan(1000);
    for (const { bytes, pieces } of got) {
      expect(Buffer.compare(bytes, files.get(ONE))).toBe(0); // the same bytes, in order
      // Shared, not one after another: none ends before ~2/3 of the link's
      // 300 ms (one after another, the first would end at ~120 ms).
      expect(pieces.at(-1).at).toBeGreaterThan(220);
    }
    const log = server.requests();
    // Bytes over time: each answer's first piece reached the client before
    // the server had sent all of any answer (the same clock: one process).
    const firstEnd = Math.min(...log.map((e) => e.endMs));
    for (const { pieces } of got) expect(t0 + pieces[0].at).toBeLessThan(firstEnd);
    expect(log.map((e) => [e.status, e.bytes, e.dropped, e.aborted])).toEqual([
      [200, 100 * KB, false, false],
      [200, 100 * KB, false, false],
      [200, 100 * KB, false, false],
    ]);
    for (const e of log) {
      // The round trip before the first byte; the first byte before the end.
      expect(e.firstByteMs - e.turnMs).toBeGreaterThanOrEqual(19);
      expect(e.endMs - e.firstByteMs).toBeGreaterThan(200);
      expect(e.startMs).toBeLessThanOrEqual(e.turnMs);
    }
    expect(server.totals()).toEqual({ requests: 3, bytes: 300 * KB, dropped: 0, aborted: 0 });
  } finally {
    server.configure({ latencyMs: 0, rateBytesPerSec: Infinity });
  }
});

test("a request aborted while it waits for its turn is dropped: logged so, never answered, its turn not taken", async () => {
  server.reset();
  server.configure({ latencyMs: 150, maxConcurrent: 1 });
  try {
    const first = fetch(`${server.url}${ONE}`).then((r) => r.arrayBuffer());
    const controller = new AbortController();
    const queued = fetch(`${server.url}${ONE}`, { signal: controller.signal }).then((r) => r.arrayBuffer());
    await sleep(50); // the first in its round trip, the second waiting behind it
    controller.abort();
    await expect(queued).rejects.toThrow(/abort/i);
    expect((await first).byteLength).toBe(100 * KB);
    await sleep(20);
    // Nothing holds a turn or waits for one: the dropped request took none
    // (with the cap at 1, one that had would hold it for its round trip).
    expect(server.busy()).toBe(0);
    await (await fetch(`${server.url}${ONE}`)).arrayBuffer();
    await sleep(20);
    const log = server.requests();
    expect(log.map((e) => [e.status, e.bytes, e.dropped, e.aborted])).toEqual([
      [0, 0, true, false],
      [200, 100 * KB, false, false],
      [200, 100 * KB, false, false],
    ]);
    expect(log[0].turnMs).toBeUndefined(); // it never had a turn
    expect(log[0].firstByteMs).toBeUndefined();
    expect(server.totals()).toEqual({ requests: 2, bytes: 200 * KB, dropped: 1, aborted: 0 });
    expect(server.inFlightPeak()).toBe(1);
  } finally {
    server.configure({ latencyMs: 0, maxConcurrent: Infinity });
  }
});

test("a request aborted during its round trip is dropped too", async () => {
  server.reset();
  server.configure({ latencyMs: 150 });
  try {
    const controller = new AbortController();
    const asked = fetch(`${server.url}${ONE}`, { signal: controller.signal });
    await sleep(50);
    controller.abort();
    await expect(asked).rejects.toThrow(/abort/i);
    await sleep(150); // past its round trip: still not answered
    const [entry] = server.requests();
    expect([entry.status, entry.bytes, entry.dropped, entry.firstByteMs]).toEqual([0, 0, true, undefined]);
    expect(entry.turnMs).toBeGreaterThanOrEqual(entry.startMs); // it had its turn, and left in its round trip
  } finally {
    server.configure({ latencyMs: 0 });
  }
});

test("an answer whose client goes away stops: its bytes sent so far logged, marked aborted", async () => {
  server.reset();
  server.configure({ rateBytesPerSec: 1000 * KB });
  try {
    const controller = new AbortController();
    const response = await fetch(`${server.url}${BIG}`, { signal: controller.signal });
    const reading = response.arrayBuffer();
    await sleep(150); // ~150 KB of 2000 sent
    controller.abort();
    await expect(reading).rejects.toThrow(/abort/i);
    await sleep(30);
    const [entry] = server.requests();
    const sent = entry.bytes;
    expect(entry.aborted).toBe(true);
    expect(entry.dropped).toBe(false);
    expect(sent).toBeGreaterThan(50 * KB);
    expect(sent).toBeLessThan(1500 * KB);
    await sleep(150);
    expect(server.requests()[0].bytes).toBe(sent); // nothing more sent
    expect(server.totals()).toEqual({ requests: 1, bytes: sent, dropped: 0, aborted: 1 });
  } finally {
    server.configure({ rateBytesPerSec: Infinity });
  }
});

test("Node's fetch opens a connection per request in flight: 12 at once are 12 at the server", async () => {
  server.reset();
  // A round trip long enough that all 12 arrive before the first is
  // answered; a client with fewer connections would send the rest only
  // after answers came.
  server.configure({ latencyMs: 400 });
  try {
    await Promise.all(Array.from({ length: 12 }, () => fetch(`${server.url}${ONE}`).then((r) => r.arrayBuffer())));
    expect(server.inFlightPeak()).toBe(12);
  } finally {
    server.configure({ latencyMs: 0 });
  }
});
