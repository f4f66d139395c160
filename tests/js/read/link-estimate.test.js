// The link estimate alone (js/read/fetch/scheduling/link-estimate.js), from
// hand-made answers, against figures worked out by hand: the round trip
// (the shortest small answer), the rate (bytes over the time the link was
// busy bringing them, less the round trip that opens each stretch), and
// what the link has not brought yet of answers on their way (stillToCome).
import { describe, expect, test } from "@jest/globals";
import { LinkEstimate } from "../../../js/read/fetch/scheduling/link-estimate.js";

const KiB256 = 256 << 10;

describe("the rate", () => {
  test("two lone answers of 256 KiB, each 10 ms of the link behind a 25 ms round trip: 26.2 MB/s, not 7.5", () => {
    const link = new LinkEstimate();
    link.observe(0, 25, 0); // a HEAD: the round trip
    link.observe(100, 135, KiB256);
    expect(link.bytesPerMs).toBeUndefined(); // 256 KiB is not yet evidence enough (512 KiB)
    link.observe(200, 235, KiB256);
    expect(link.rttMs).toBe(25);
    expect(link.bytesPerMs).toBeCloseTo((2 * KiB256) / 20, 6);
  });

  test("answers that overlap are one stretch: one round trip off it", () => {
    const link = new LinkEstimate();
    link.observe(0, 25, 0);
    link.observe(100, 145, KiB256);
    link.observe(105, 150, KiB256);
    // The stretch 100..150 less 25 ms.
    expect(link.bytesPerMs).toBeCloseTo((2 * KiB256) / 25, 6);
  });

  test("a stretch no longer than the round trip counts an eighth of itself, not nothing", () => {
    const link = new LinkEstimate();
    link.observe(0, 40, 0);
    link.observe(100, 130, 2 * KiB256);
    expect(link.bytesPerMs).toBeCloseTo((2 * KiB256) / (30 / 8), 6);
  });

  test("answers all large (no small answer measured the round trip): whole stretches, on the low side", () => {
    const link = new LinkEstimate();
    // Four lone 1 MiB answers at 25 MB/s behind 25 ms: 66.9 ms each.
    const span = 25 + (1 << 20) / 25_000;
    for (let i = 0; i < 4; i++) link.observe(100 * i, 100 * i + span, 1 << 20);
    expect(link.bytesPerMs).toBeCloseTo((1 << 20) / span, 6);
    expect(link.bytesPerMs).toBeLessThan(25_000);
  });

  test("the round trip: the shortest small answer; half a suffix request's where there is none", () => {
    const link = new LinkEstimate();
    link.observe(0, 60, 1028, true);
    expect(link.rttMs).toBe(30);
    link.observe(100, 126, 4096);
    expect(link.rttMs).toBe(26);
  });
});

describe("stillToCome: what the link has not brought yet", () => {
  const f = { learnt: true, rttMs: 10, bytesPerMs: 100 };
  const link = new LinkEstimate();
  // 1000 bytes asked at 0 (flowing from 10), 500 at 5 (flowing from 15).
  const flights = [
    { sentMs: 0, bytes: 1000 },
    { sentMs: 5, bytes: 500 },
  ];

  test.each([
    [5, 1500], // neither has started to flow
    [10, 1500], // the first starts: 1000 queued, 500 not started
    [15, 1000], // 500 of the first drained, the second's 500 joins
    [20, 500],
    [25, 0],
    [40, 0],
  ])("at %d ms: %d bytes", (nowMs, expected) => {
    expect(link.stillToCome(flights, nowMs, f)).toBeCloseTo(expected, 6);
  });

  test("a link whose rate is not known yet counts every byte until its request ends", () => {
    expect(link.stillToCome(flights, 1e6, { learnt: false, rttMs: 25, bytesPerMs: 6250 })).toBe(1500);
  });
});

