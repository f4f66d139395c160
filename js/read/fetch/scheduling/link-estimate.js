// What the reads themselves see of the link to a store's server: its round
// trip and its rate, learnt from the answers of every store call (the
// gateway reports each: requests/store-requests.js), one estimate per
// origin (a FetchStore's URL's origin; a store object where it has no URL),
// shared by every array and read of it in the realm.
//
// They set how read coalesces a shard's ranges (shards/range-coalescer.js):
//   - a gap is read through only where its bytes cost less than the round
//     trip they save: gap <= round trip x rate (156 KB at 25 ms and
//     50 Mbit/s; zarr-python 3.3's 1 MiB is a datacenter's figure, where
//     a request costs more than a megabyte);
//   - a merged answer is bounded so that decoding runs beside the transfer
//     (an answer is decoded only once its last byte has come): at most
//     what the link moves in MAX_ANSWER_MS, and never below one round
//     trip's worth.
// Before anything is known (the first requests to an origin), the gap is
// a user's link's (25 ms at 50 Mbit/s: 156 KB), and an answer may be as
// large as zarr-python's 16 MiB (the whole of a shard as zarr-python
// writes it, in one request, on a fast link).
//
// The round trip: the shortest recent small answer (half a suffix
// request's, which may be two round trips). The rate: the bytes
// of the recent answers over the time the link was busy bringing them (so
// that answers sharing the link count together, as a gap's bytes share
// it).

/** Answers kept per origin. */
const WINDOW = 48;
/** An answer at most this large times its round trip. */
const SMALL_ANSWER = 32 << 10;
/** A rate is known once this many bytes were seen. */
const RATE_EVIDENCE_BYTES = 512 << 10;
/** An answer should take at most this long on the link alone. */
export const MAX_ANSWER_MS = 250;
/** Answers on their way on a link at once: this many round trips' worth. */
export const WINDOW_TRIPS = 4;
/** A merged answer is never bounded below this (a tile or two of any image). */
const MIN_ANSWER_BYTES = 256 << 10;

/** The prior: a user's link, 25 ms and 50 Mbit/s. */
export const PRIOR = Object.freeze({ rttMs: 25, bytesPerMs: 6250 });
/** zarr-python 3.3's bounds, the most read ever merges. */
export const CEILING = Object.freeze({ gapBytes: 1 << 20, answerBytes: 16 << 20 });

const byOrigin = new Map();
const byStore = new WeakMap();

function originOf(store) {
  try {
    const url = store?.url;
    const text = typeof url === "string" ? url : typeof url?.href === "string" ? url.href : undefined;
    return text ? new URL(text).origin : undefined;
  } catch {
    return undefined;
  }
}

export class LinkEstimate {
  /** @type {{startMs: number, endMs: number, bytes: number}[]} */
  #answers = [];

  /**
   * A store call's answer: `bytes` came `endMs - startMs` after it was
   * asked. `suffix`: it asked for an object's last bytes, which a store may
   * do in two round trips (zarrita's FetchStore asks for the size first,
   * with a HEAD, unless made with useSuffixRequest).
   */
  observe(startMs, endMs, bytes, suffix = false) {
    if (!(endMs >= startMs)) return;
    this.#answers.push({ startMs, endMs, bytes, trips: suffix ? 2 : 1 });
    if (this.#answers.length > WINDOW) this.#answers.shift();
  }


  /**
   * The round trip in ms, or undefined before an answer was seen: the
   * shortest of the recent small answers (a shard's range, a zarr.json),
   * which the link's rate hardly lengthens; where there are none but
   * answers to suffix requests (a shard's index), half the shortest of
   * those (a store may ask for them in two round trips, a HEAD first: half
   * errs short where it asked in one); else the shortest of all answers.
   */
  get rttMs() {
    const { small, suffix, any } = this.#roundTrips();
    return small ?? suffix ?? any;
  }

  /** The round trip as small answers and suffix requests measure it; the shortest answer of any size (a round trip and a transfer). */
  #roundTrips() {
    let small;
    let suffix;
    let any;
    for (const a of this.#answers) {
      const ms = a.endMs - a.startMs;
      if (any === undefined || ms < any) any = ms;
      if (a.bytes > SMALL_ANSWER) continue;
      if (a.trips === 2) {
        if (suffix === undefined || ms / 2 < suffix) suffix = ms / 2;
        continue;
      }
      if (small === undefined || ms < small) small = ms;
    }
    return { small, suffix, any };
  }

  /**
   * The link's rate in bytes per ms, or undefined before enough bytes were
   * seen: the bytes of the recent answers over the time the link was busy
   * with them: the union of their spans from asking to the last byte, less
   * the round trip that opens each stretch of it. Round trips of requests
   * sent within a stretch still count, which makes it an estimate on the
   * short side, a small one where answers overlap, as they do when the
   * link is busy (counting whole spans made a lone 256 KiB answer at
   * 25 MB/s, 10 ms of the link behind a 25 ms round trip, read as 7 MB/s).
   */
  get bytesPerMs() {
    let bytes = 0;
    const spans = [];
    for (const a of this.#answers) {
      if (a.bytes === 0) continue;
      bytes += a.bytes;
      spans.push([a.startMs, a.endMs]);
    }
    if (bytes < RATE_EVIDENCE_BYTES) return undefined;
    spans.sort((x, y) => x[0] - y[0]);
    // Each stretch of answers on their way begins with a round trip in
    // which the link brings none of them: it is not counted, as the small
    // answers measure it less their own transfer (at the rate counting
    // whole stretches, which errs low, so the round trip errs short: a
    // 32 KiB answer is a round trip and 8 ms of a 4 MB/s link, and taking
    // it whole off every stretch made the rate 4.26 MB/s there); where
    // there are none, half a suffix request's. At most 7/8 of a stretch.
    const stretches = [];
    let [from, to] = spans[0];
    for (const [a, b] of spans) {
      if (a > to) {
        stretches.push(to - from);
        [from, to] = [a, b];
      } else if (b > to) to = b;
    }
    stretches.push(to - from);
    const whole = bytes / Math.max(stretches.reduce((sum, ms) => sum + ms, 0), 1);
    const rtt = this.#roundTripLessTransfer(whole) ?? this.#roundTrips().suffix ?? 0;
    const busy = stretches.reduce((sum, ms) => sum + Math.max(ms - rtt, ms / 8), 0);
    // A burst faster than the clock can tell: at least 1 ms.
    return bytes / Math.max(busy, 1);
  }

  /** The shortest small answer less its bytes' time at `bytesPerMs` (undefined where there is none). */
  #roundTripLessTransfer(bytesPerMs) {
    let rtt;
    for (const a of this.#answers) {
      if (a.bytes > SMALL_ANSWER || a.trips === 2) continue;
      const ms = Math.max(0, a.endMs - a.startMs - a.bytes / bytesPerMs);
      if (rtt === undefined || ms < rtt) rtt = ms;
    }
    return rtt;
  }

  /**
   * Of the answers on their way (`flights`: each a request of `bytes` sent
   * at `sentMs`), the bytes the link has likely not brought yet at `nowMs`,
   * by the figures `f`: a request's bytes start to flow a round trip after
   * it was sent, and the link drains what has started at its rate, shared
   * by every answer. Answers sharing a link fairly end together, so
   * counting each request's bytes until it ends would leave the link idle
   * for a round trip each time a window's worth ends at once; counting
   * what is left of them lets the next request start a round trip before
   * the link runs dry. Unknown rate: every byte counts until its request
   * ends.
   * @param {{sentMs: number, bytes: number}[]} flights
   */
  stillToCome(flights, nowMs, f = this.figures()) {
    if (!f.learnt) return flights.reduce((sum, r) => sum + r.bytes, 0);
    const starts = flights.map((r) => ({ at: r.sentMs + f.rttMs, bytes: r.bytes })).sort((a, b) => a.at - b.at);
    let queued = 0;
    let notStarted = 0;
    let t = -Infinity;
    for (const { at, bytes } of starts) {
      if (at > nowMs) {
        notStarted += bytes;
        continue;
      }
      queued = Math.max(0, queued - f.bytesPerMs * (at - t)) + bytes;
      t = at;
    }
    if (t > -Infinity) queued = Math.max(0, queued - f.bytesPerMs * (nowMs - t));
    return queued + notStarted;
  }

  /** A recent answer's typical size (their mean; 0 before any): what a request whose size is unknown will likely bring. */
  get typicalAnswerBytes() {
    let n = 0;
    let bytes = 0;
    for (const a of this.#answers) {
      if (a.bytes === 0) continue;
      n += 1;
      bytes += a.bytes;
    }
    return n === 0 ? 0 : bytes / n;
  }

  /**
   * The figures coalescing and scheduling use now: { rttMs, bytesPerMs,
   * gapBytes, answerBytes, windowBytes, learnt }.
   * - gapBytes: round trip x rate (a gap costs less than the round trip it
   *   saves);
   * - windowBytes: the bytes a scheduler lets be on their way on this link
   *   at once (read-scheduler.js): WINDOW_TRIPS round trips' worth. A
   *   request's bytes flow only after its round trip, so a window of one
   *   round trip's worth would leave the link idle; a few keep it busy as
   *   requests end and others start, and bound what a late request of
   *   higher priority waits behind. Unbounded before the rate is known.
   * - answerBytes: the most one merged request asks for: what the link
   *   moves in MAX_ANSWER_MS (so decoding runs beside the transfer), at
   *   least MIN_ANSWER_BYTES; zarr-python's 16 MiB before the rate is
   *   known, and at most. A scheduler bounds a merged request by a third
   *   of the window too (read-scheduler.js), so that requests end and
   *   start within it.
   */
  figures() {
    const rttMs = this.rttMs ?? PRIOR.rttMs;
    const measured = this.bytesPerMs;
    const bytesPerMs = measured ?? PRIOR.bytesPerMs;
    const bdp = rttMs * bytesPerMs;
    const gapBytes = Math.min(CEILING.gapBytes, Math.floor(bdp));
    if (measured === undefined) return { rttMs, bytesPerMs, gapBytes, answerBytes: CEILING.answerBytes, windowBytes: Infinity, learnt: false };
    const windowBytes = Math.max(Math.floor(WINDOW_TRIPS * bdp), 3 * MIN_ANSWER_BYTES);
    const answerBytes = Math.min(CEILING.answerBytes, Math.max(MIN_ANSWER_BYTES, Math.floor(MAX_ANSWER_MS * bytesPerMs)));
    return { rttMs, bytesPerMs, gapBytes, answerBytes, windowBytes, learnt: true };
  }
}

/** The link of `store`'s server (one per origin), made on first use. */
export function linkOf(store) {
  const origin = originOf(store);
  if (origin !== undefined) {
    let link = byOrigin.get(origin);
    if (!link) byOrigin.set(origin, (link = new LinkEstimate()));
    return link;
  }
  let link = byStore.get(store);
  if (!link && store && typeof store === "object") byStore.set(store, (link = new LinkEstimate()));
  return link ?? new LinkEstimate();
}

/** Forgets every origin's link (tests; a page whose network changed). */
export function forgetLinks() {
  byOrigin.clear();
}
