// The read scheduler's queue alone (js/read/fetch/scheduling/read-scheduler.js),
// with hand-made tickets and no I/O, as loaders.gl tests its
// RequestScheduler: slots granted highest priority first, first asked first
// among equals, priorities asked again each time a slot frees, tickets of
// aborted requests dropped unsent, siblings offered to a granted ticket only
// where they would be sent next anyway, and createReadScheduler's checks.
import { describe, expect, test } from "@jest/globals";
import { createReadScheduler, ZarrCodecError } from "../../../js/index.js";
import { queueOf } from "../../../js/read/fetch/scheduling/read-scheduler.js";
import { priorityNow } from "../../../js/read/fetch/scheduling/priority.js";
import { expectCodecError } from "../support/expect-error.js";

const turn = () => new Promise((r) => setImmediate(r));

/** A ticket that records when it is granted (into `log`) or dropped. */
function ticket(log, name, priority, { signal, group, bytes = 0 } = {}) {
  const t = {
    name,
    group,
    bytes,
    signal,
    // As the fetch stage's tickets ask a read's priority (a number or a function).
    priority: () => priorityNow(priority),
    granted: (grant) => {
      t.grant = grant;
      log.push(name);
    },
    dropped: (reason) => {
      t.dropReason = reason;
      log.push(`dropped ${name}`);
    },
  };
  return t;
}

function queue(maxRequests) {
  return queueOf(createReadScheduler({ maxRequests }));
}

describe("the order requests are sent in", () => {
  test("highest priority first, first asked first among equals; at most maxRequests at once", async () => {
    const q = queue(2);
    const log = [];
    const tickets = [ticket(log, "a", 0), ticket(log, "b", 5), ticket(log, "c", 5), ticket(log, "d", 9), ticket(log, "e", 0)];
    tickets.forEach((t) => q.enqueue(t));
    // Nothing is granted within the task that asked: requests asked together are ordered together.
    expect(log).toEqual([]);
    await turn();
    expect(log).toEqual(["d", "b"]);
    expect([q.inFlight, q.waiting]).toEqual([2, 3]);
    q.release(tickets[3]);
    await turn();
    expect(log).toEqual(["d", "b", "c"]);
    q.release(tickets[1]);
    q.release(tickets[2]);
    await turn();
    expect(log).toEqual(["d", "b", "c", "a", "e"]);
  });

  test("a priority function is asked again each time a slot frees: the view's centre moved", async () => {
    const q = queue(1);
    const log = [];
    let centre = 0;
    // Tiles 0..3 by distance to the centre.
    const tiles = [0, 1, 2, 3].map((i) => ticket(log, `tile ${i}`, () => -Math.abs(i - centre)));
    tiles.forEach((t) => q.enqueue(t));
    await turn();
    expect(log).toEqual(["tile 0"]);
    centre = 3; // a pan
    q.release(tiles[0]);
    await turn();
    expect(log).toEqual(["tile 0", "tile 3"]);
    centre = 1;
    q.release(tiles[3]);
    await turn();
    expect(log).toEqual(["tile 0", "tile 3", "tile 1"]);
  });

  test("a priority function that throws drops its ticket with CALLBACK_FAILED; the others go on", async () => {
    const q = queue(1);
    const log = [];
    const bad = ticket(log, "bad", () => {
      throw new Error("no centre");
    });
    const good = ticket(log, "good", 1);
    q.enqueue(bad);
    q.enqueue(good);
    await turn();
    expect(log).toEqual(["dropped bad", "good"]);
    expect(bad.dropReason).toBeInstanceOf(ZarrCodecError);
    expect(bad.dropReason.code).toBe("CALLBACK_FAILED");
    expect(bad.dropReason.message).toBe("read: priority threw: no centre");
  });
});

describe("drops", () => {
  test("a ticket whose signal aborts while it waits is dropped, never sent; one in flight is counted aborted", async () => {
    const q = queue(1);
    const log = [];
    const first = new AbortController();
    const waiting = new AbortController();
    const a = ticket(log, "a", 0, { signal: first.signal });
    const b = ticket(log, "b", 0, { signal: waiting.signal });
    const c = ticket(log, "c", 0);
    [a, b, c].forEach((t) => q.enqueue(t));
    await turn();
    expect(log).toEqual(["a"]);
    waiting.abort(new Error("panned away"));
    expect(log).toEqual(["a", "dropped b"]);
    expect(b.dropReason.message).toBe("panned away");
    first.abort();
    q.release(a, { bytes: 0, aborted: true });
    await turn();
    expect(log).toEqual(["a", "dropped b", "c"]);
    q.release(c, { bytes: 100 });
    expect(q.stats).toEqual({ sent: 2, droppedBeforeSending: 1, abortedInFlight: 1, bytes: 100 });
  });

  test("a ticket aborted before it is enqueued is dropped at once", () => {
    const q = queue(1);
    const log = [];
    const c = new AbortController();
    c.abort();
    q.enqueue(ticket(log, "late", 0, { signal: c.signal }));
    expect(log).toEqual(["dropped late"]);
    expect(q.waiting).toBe(0);
  });
});

describe("merging what waits together", () => {
  test("a granted ticket is offered its group's waiting tickets; the barrier is the best other group's priority, never below its own", async () => {
    const q = queue(1);
    const log = [];
    const head = ticket(log, "shard A, visible", 10, { group: "A" });
    const sameTier = ticket(log, "shard A, visible too", 10, { group: "A" });
    const prefetch = ticket(log, "shard A, prefetch", 0, { group: "A" });
    const otherShard = ticket(log, "shard B, visible", 10, { group: "B" });
    [head, sameTier, prefetch, otherShard].forEach((t) => q.enqueue(t));
    await turn();
    expect(log).toEqual(["shard A, visible"]);
    expect(head.grant.barrier).toBe(10);
    expect(head.grant.siblings.map((s) => [s.ticket.name, s.priority])).toEqual([
      ["shard A, visible too", 10],
      ["shard A, prefetch", 0],
    ]);
    // The coalescer takes the one at the barrier along; the prefetch waits.
    expect(q.withdraw(sameTier)).toBe(true);
    expect(q.withdraw(sameTier)).toBe(false);
    q.release(head);
    await turn();
    expect(log).toEqual(["shard A, visible", "shard B, visible"]);
    // Only shard A's prefetch waits besides: still no lower range rides along.
    expect(otherShard.grant.barrier).toBe(10);
  });
});

describe("createReadScheduler", () => {
  test("checks its options; stats start at zero", () => {
    expect(createReadScheduler().maxRequests).toBe(6);
    expect(createReadScheduler({ maxRequests: 16 }).stats()).toEqual({ waiting: 0, inFlight: 0, sent: 0, droppedBeforeSending: 0, abortedInFlight: 0, bytes: 0, maxRequests: 16 });
    expectCodecError(() => createReadScheduler({ maxRequests: 0 }), "INVALID_INPUT", "createReadScheduler: maxRequests must be an integer >= 1, got 0");
    expectCodecError(() => createReadScheduler({ maxRequests: 2.5 }), "INVALID_INPUT", "createReadScheduler: maxRequests must be an integer >= 1, got 2.5");
    expectCodecError(() => createReadScheduler(6), "INVALID_INPUT", "createReadScheduler: options must be an object ({ maxRequests }), got 6");
    expectCodecError(() => queueOf({}), "INVALID_INPUT", "read: scheduler must come from createReadScheduler(), got an object");
  });
});
