// The read scheduler's view of a link between releases
// (js/read/fetch/scheduling/read-scheduler.js, by link-estimate.js
// stillToCome): what is left of the answers on their way, as the link
// drains them; a request of lower priority held until what is left of the
// higher ones is a round trip's worth; nothing lower while a shard's index
// of higher priority is on its way. Hand-made tickets on a link of fixed
// figures (10 bytes a ms), on Jest's fake clock (the queue's timers, its
// next tasks and performance.now), so that the times are the queue's own,
// whatever the load on the machine; expected times worked out by hand
// from the figures.
import { afterEach, beforeEach, describe, expect, jest, test } from "@jest/globals";
import { createReadScheduler } from "../../../js/index.js";
import { queueOf } from "../../../js/read/fetch/scheduling/read-scheduler.js";
import { LinkEstimate } from "../../../js/read/fetch/scheduling/link-estimate.js";

// Promises and microtasks stay real: the queue's awaits run between timers.
beforeEach(() => jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask"] }));
afterEach(() => jest.useRealTimers());
const sleep = (ms) => jest.advanceTimersByTimeAsync(ms);

/** A link whose figures are given: 20 ms a round trip, 10 bytes a ms. */
class FixedLink extends LinkEstimate {
  constructor(figures) {
    super();
    this.fixed = { learnt: true, rttMs: 20, bytesPerMs: 10, gapBytes: 200, answerBytes: 1 << 20, windowBytes: 1 << 20, ...figures };
  }
  figures() {
    return this.fixed;
  }
}

function ticket(log, name, priority, link, { bytes = 0, index = false } = {}) {
  const t = {
    name,
    bytes,
    link,
    index,
    priority: () => priority,
    granted: () => {
      t.grantedAt = performance.now();
      log.push(name);
    },
    dropped: (reason) => log.push(`dropped ${name}: ${reason}`),
  };
  return t;
}

const queue = () => queueOf(createReadScheduler({ maxRequests: 6 }));

describe("between releases", () => {
  test("a full window makes room as its answers drain, with no request settling", async () => {
    const link = new FixedLink({ windowBytes: 1000 });
    const q = queue();
    const log = [];
    const a = ticket(log, "a", 0, link, { bytes: 1000 });
    const b = ticket(log, "b", 0, link, { bytes: 500 });
    const t0 = performance.now();
    q.enqueue(a);
    q.enqueue(b);
    // a goes (alone on its link); b waits: 1000 bytes still to come. They
    // flow from 20 ms at 10 a ms: room for b's 500 at 20 + 50 = 70 ms.
    await sleep(40);
    expect(log).toEqual(["a"]);
    await sleep(150);
    expect(log).toEqual(["a", "b"]);
    expect(b.grantedAt - t0).toBeGreaterThanOrEqual(65);
    expect(q.inFlight).toBe(2); // a was never released
  });

  test("a lower request waits until what is left of the higher ones is half a round trip's worth; one of their priority goes at once", async () => {
    // A round trip of 200 ms at 10 bytes a ms: half of it is 1000 bytes' worth.
    const link = new FixedLink({ rttMs: 200 });
    const q = queue();
    const log = [];
    const t0 = performance.now();
    const high = ticket(log, "high", 5, link, { bytes: 1000 });
    const peer = ticket(log, "peer", 5, link, { bytes: 100 });
    const low = ticket(log, "low", 0, link, { bytes: 100 });
    q.enqueue(high);
    q.enqueue(peer);
    q.enqueue(low);
    // high's and peer's 1100 bytes flow from 200 ms at 10 a ms; low may go
    // once 1000 are left: at 210 ms (were it to wait for them all, 310).
    await sleep(150);
    expect(log).toEqual(["high", "peer"]);
    await sleep(250);
    expect(log).toEqual(["high", "peer", "low"]);
    expect(low.grantedAt - t0).toBeGreaterThanOrEqual(195);
    expect(low.grantedAt - t0).toBeLessThan(270);
  });

  test("before the link's rate is known, a lower request does not wait for the higher ones to end", async () => {
    const link = new FixedLink({ learnt: false, windowBytes: Infinity });
    const q = queue();
    const log = [];
    q.enqueue(ticket(log, "high", 5, link, { bytes: 1000 }));
    q.enqueue(ticket(log, "low", 0, link, { bytes: 100 }));
    await sleep(0);
    expect(log).toEqual(["high", "low"]);
  });

  test("a request larger than the window waits for a release, asking no priority meanwhile", async () => {
    const link = new FixedLink({ windowBytes: 1000 });
    const q = queue();
    const log = [];
    const small = ticket(log, "small", 0, link, { bytes: 500 });
    q.enqueue(small);
    await sleep(0);
    let asked = 0;
    const big = ticket(log, "big", 0, link, { bytes: 1100 });
    big.priority = () => (asked++, 0);
    q.enqueue(big);
    // small's 500 bytes drain by 70 ms; no draining makes room for 1100
    // in a window of 1000: only small's release does.
    await sleep(300);
    expect(log).toEqual(["small"]);
    expect(asked).toBeLessThanOrEqual(2);
    q.release(small, { bytes: 500 });
    await sleep(0);
    expect(log).toEqual(["small", "big"]);
  });

  test("nothing of lower priority goes while a shard's index of higher priority is on its way; after it, at once", async () => {
    const link = new FixedLink();
    const q = queue();
    const log = [];
    const index = ticket(log, "index", 5, link, { bytes: 10, index: true });
    q.enqueue(index);
    await sleep(0);
    const low = ticket(log, "low", 0, link, { bytes: 10 });
    const peer = ticket(log, "peer", 5, link, { bytes: 10 });
    q.enqueue(low);
    q.enqueue(peer);
    // The index's 10 bytes are long drained by the link's figures: only
    // its being on its way holds low back.
    await sleep(120);
    expect(log).toEqual(["index", "peer"]);
    q.release(index, { bytes: 10 });
    // The queue orders two tasks after an index's release (its reads'
    // ranges among what waits): a timer of 0 ms may fire before that.
    await sleep(20);
    expect(log).toEqual(["index", "peer", "low"]);
  });

  test("after a shard's index comes, the ranges its reads ask for in the next task go before lower ones waiting", async () => {
    const link = new FixedLink();
    const q = queueOf(createReadScheduler({ maxRequests: 1 }));
    const log = [];
    const index = ticket(log, "index", 5, link, { bytes: 10, index: true });
    q.enqueue(index);
    await sleep(0);
    q.enqueue(ticket(log, "ring", 0, link, { bytes: 10 }));
    await sleep(20);
    expect(log).toEqual(["index"]);
    // The index's answer: its reads' ranges are asked a task later (the
    // coalescer's flush), as shard-reader.js and range-coalescer.js do.
    q.release(index, { bytes: 10 });
    setImmediate(() => q.enqueue(ticket(log, "visible", 5, link, { bytes: 10 })));
    await sleep(20);
    expect(log).toEqual(["index", "visible"]);
  });

  test("on another link, a lower request goes on", async () => {
    const busy = new FixedLink();
    const other = new FixedLink();
    const q = queue();
    const log = [];
    q.enqueue(ticket(log, "index", 5, busy, { bytes: 10, index: true }));
    q.enqueue(ticket(log, "high", 5, busy, { bytes: 1000 }));
    await sleep(0);
    q.enqueue(ticket(log, "low elsewhere", 0, other, { bytes: 100 }));
    await sleep(0);
    expect(log).toEqual(["index", "high", "low elsewhere"]);
  });
});
