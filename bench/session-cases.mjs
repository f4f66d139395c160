// A viewer's session, the scenarios of bench/session.mjs (Node) and
// bench/session-browser.mjs (Chromium): what a tile viewer asks for, and
// when, on the image of bench/make-network-store.py (side x side, tiles
// of side / 16 that are the inner chunks of its shards; "quarter" the
// image at 1/4, one shard of 16 inner chunks). A viewport is 4 x 4 tiles.
//
//   prefetch  the 48 tiles of a ring two tiles wide around the viewport
//             asked at the lowest priority, then the viewport's 16 at the
//             highest; measured: the visible tiles done
//   fling     8 viewports, one every 60 ms, each a tile further down and
//             right (tiles 2..5 to 9..12 on both axes: 7 new tiles of 16
//             each step, the last viewport inside one shard but not
//             aligned to its Morton order), each aborting the last's
//             reads, each at a higher priority than the last; measured:
//             the last done, from its start
//   levels    the level-0 viewport asked at the lowest priority, then the
//             whole 1/4 level (one read) at the highest (the overview a
//             viewer shows first); measured: the 1/4 level done
//
// Each scenario is also run "alone": its measured reads and nothing else.
// The plain-data scenarios, the runner that asks for them (given a reader's
// get), the check of outcomes, and what the server's log says of where
// the time went (round trips in a row, bytes on the link, the time after
// the last answer) live here, so that Node and the browser page share
// them; readers and servers are the callers'.

/** Priorities (higher first, as createReadScheduler sends them). */
export const LOW = 0;
export const HIGH = 10;

/**
 * @typedef {[[number, number], [number, number]] | null} Selection
 * @typedef {{group: string, atMs: number, array: string, priority: number, sels: Selection[]}} Wave
 *   reads asked together at atMs after the start, each one read
 * @typedef {{name: string, label: string, waves: Wave[], target: string, abortPrevious: boolean}} Scenario
 */

/** The three scenarios over an image of side x side. */
export function sessionScenarios(side) {
  const tile = side / 16;
  const at = (r, c) => [
    [r * tile, (r + 1) * tile],
    [c * tile, (c + 1) * tile],
  ];
  // The viewport: tiles 6..9 by 6..9, across the 4 shards' corner.
  const inViewport = (r, c, r0 = 6, c0 = 6) => r >= r0 && r < r0 + 4 && c >= c0 && c < c0 + 4;
  const viewport = (r0, c0) => {
    const sels = [];
    for (let r = r0; r < r0 + 4; r++) for (let c = c0; c < c0 + 4; c++) sels.push(at(r, c));
    return sels;
  };
  const ring = [];
  for (let r = 4; r < 12; r++) for (let c = 4; c < 12; c++) if (!inViewport(r, c)) ring.push(at(r, c));
  return [
    {
      name: "prefetch",
      label: "prefetch: 48 ring tiles asked, then the 16 visible; visible done (visible alone)",
      waves: [
        { group: "ring", atMs: 0, array: "sharded", priority: LOW, sels: ring },
        { group: "visible", atMs: 0, array: "sharded", priority: HIGH, sels: viewport(6, 6) },
      ],
      target: "visible",
      abortPrevious: false,
    },
    {
      name: "fling",
      label: "fling: 8 viewports, one every 60 ms, each aborting the last; the last done, from its start (alone); MiB moved (last alone)",
      waves: Array.from({ length: 8 }, (_, k) => ({ group: `viewport ${k + 1}`, atMs: 60 * k, array: "sharded", priority: LOW + k, sels: viewport(2 + k, 2 + k) })),
      target: "viewport 8",
      abortPrevious: true,
    },
    {
      name: "levels",
      label: "levels: a level-0 viewport asked, then the whole 1/4 level; 1/4 level done (alone)",
      waves: [
        { group: "level 0", atMs: 0, array: "sharded", priority: LOW, sels: viewport(6, 6) },
        { group: "1/4 level", atMs: 0, array: "quarter", priority: HIGH, sels: [null] },
      ],
      target: "1/4 level",
      abortPrevious: false,
    },
  ];
}

/** The scenario's measured reads and nothing else. */
export function alone(scenario) {
  const wave = scenario.waves.find((w) => w.group === scenario.target);
  return { ...scenario, name: `${scenario.name} alone`, waves: [{ ...wave, atMs: 0 }], abortPrevious: false };
}

/** The (array, priority) pairs a scenario reads, for readers that open an array per priority. */
export function arraysOf(scenario) {
  const seen = new Map();
  for (const w of scenario.waves) seen.set(`${w.array}@${w.priority}`, { array: w.array, priority: w.priority });
  return [...seen.values()];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `server` quiet (nothing served or waiting) for `quietMs`, at most 10 s:
 * after a run, time for any request a client still makes (a stale read's
 * next fetch) to arrive. `server.busy()` may answer in a promise (the
 * server in a worker thread). False where it never was.
 */
export async function settle(server, quietMs) {
  const until = performance.now() + 10000;
  let quietSince = performance.now();
  while (performance.now() < until) {
    if ((await server.busy()) > 0) quietSince = performance.now();
    else if (performance.now() - quietSince >= quietMs) return true;
    await sleep(5);
  }
  return false;
}

const isAbort = (error) => error?.name === "AbortError" || /abort/i.test(String(error?.message ?? error));

/**
 * Runs a scenario: each wave's reads asked at its time (each read one call
 * of `get`), the previous wave's aborted first where the scenario says so.
 * Waits for every read to settle, at most `timeoutMs` (then it is a hang:
 * every read is aborted and given 5 s more).
 * @param {Scenario} scenario
 * @param {(array: string, sel: Selection, options: {signal: AbortSignal, priority: number}) => Promise<unknown>} get
 * @param {{timeoutMs: number, now?: () => number, onSignal?: (signal: AbortSignal, reads: number) => void}} options
 *   onSignal: called with each wave's signal and its number of reads
 */
export async function runScenario(scenario, get, { timeoutMs, now = () => performance.now(), onSignal }) {
  const t0 = now();
  const groups = [];
  for (const wave of scenario.waves) {
    const wait = t0 + wave.atMs - now();
    if (wait > 0) await sleep(wait);
    const previous = groups.at(-1);
    if (scenario.abortPrevious && previous) {
      previous.abortedAtMs = now() - t0;
      previous.controller.abort();
    }
    const controller = new AbortController();
    onSignal?.(controller.signal, wave.sels.length);
    const startMs = now() - t0;
    const outcomes = wave.sels.map((sel) =>
      new Promise((resolve) => resolve(get(wave.array, sel, { signal: controller.signal, priority: wave.priority }))).then(
        (value) => ({ ok: true, value, atMs: now() - t0 }),
        (error) => ({ ok: false, error, atMs: now() - t0 }),
      ),
    );
    groups.push({ ...wave, controller, startMs, abortedAtMs: undefined, settled: Promise.all(outcomes) });
  }
  const all = Promise.all(groups.map((g) => g.settled));
  let hung = false;
  let timer;
  const outcome = await Promise.race([all, new Promise((resolve) => (timer = setTimeout(() => resolve("hang"), timeoutMs)))]);
  clearTimeout(timer);
  if (outcome === "hang") {
    hung = true;
    for (const g of groups) g.controller.abort();
    await Promise.race([all, sleep(5000)]);
  }
  const results = [];
  for (const g of groups) {
    // A hang's reads may never settle: they are left out.
    const settled = await Promise.race([g.settled, Promise.resolve(undefined)]);
    results.push({ group: g.group, array: g.array, sels: g.sels, priority: g.priority, startMs: g.startMs, abortedAtMs: g.abortedAtMs, outcomes: settled ?? [] });
  }
  return { t0, hung, groups: results, target: scenario.target };
}

/**
 * What one run says: the target's time from its start (undefined where
 * one of its reads failed), reads failed by an abort that was not theirs
 * (their group was not aborted), other failures, and every read that
 * returned values (for the check).
 */
export function runFacts(run) {
  const target = run.groups.find((g) => g.group === run.target);
  const failedByAbort = [];
  const failed = [];
  for (const g of run.groups) {
    if (g.abortedAtMs !== undefined) continue;
    for (const o of g.outcomes) {
      if (o.ok) continue;
      (isAbort(o.error) ? failedByAbort : failed).push(`${g.group}: ${o.error?.name ?? "Error"}: ${o.error?.message ?? o.error}`);
    }
  }
  const done = !run.hung && target.outcomes.length === target.sels.length && target.outcomes.every((o) => o.ok);
  const targetMs = done ? Math.max(...target.outcomes.map((o) => o.atMs)) - target.startMs : undefined;
  return { targetMs, targetStartMs: target.startMs, failedByAbort, failed, hung: run.hung };
}

/**
 * Checks every read that returned values against the image: `check(array,
 * sel, got)` throws where one differs. Returns how many were checked.
 */
export function checkRun(run, check) {
  let n = 0;
  for (const g of run.groups) {
    g.outcomes.forEach((o, i) => {
      if (!o.ok) return;
      check(g.array, g.sels[i], o.value);
      n++;
    });
  }
  return n;
}

/**
 * The shard layout of the store's sharded arrays, read from the files the
 * server serves (each shard's index at its end: per inner chunk in C
 * order, offset and length as little-endian uint64, then a crc32c).
 * @param {Map<string, Uint8Array>} files
 * @param {number} side
 */
export function shardLayout(files, side) {
  const arrays = {
    sharded: { shape: side, shard: side / 2, inner: side / 16 },
    quarter: { shape: side / 4, shard: side / 4, inner: side / 16 },
  };
  const shards = new Map();
  for (const [name, a] of Object.entries(arrays)) {
    const grid = a.shard / a.inner;
    for (let i = 0; i < a.shape / a.shard; i++) {
      for (let j = 0; j < a.shape / a.shard; j++) {
        const path = `/image.zarr/${name}/c/${i}/${j}`;
        const blob = files.get(path);
        if (!blob) continue;
        const n = grid * grid;
        const indexStart = blob.length - n * 16 - 4;
        const view = new DataView(blob.buffer, blob.byteOffset + indexStart, n * 16);
        const chunks = Array.from({ length: n }, (_, k) => ({ offset: Number(view.getBigUint64(16 * k, true)), length: Number(view.getBigUint64(16 * k + 8, true)) }));
        shards.set(path, { size: blob.length, indexStart, chunks });
      }
    }
  }
  return { arrays, shards };
}

/** The inner chunks (shard path -> set of chunk numbers) a read of `sel` on `array` needs. */
function chunksOf(layout, array, sel) {
  const a = layout.arrays[array];
  const [rows, cols] = sel ?? [
    [0, a.shape],
    [0, a.shape],
  ];
  const grid = a.shard / a.inner;
  const out = new Map();
  for (let r = Math.floor(rows[0] / a.inner); r < Math.ceil(rows[1] / a.inner); r++) {
    for (let c = Math.floor(cols[0] / a.inner); c < Math.ceil(cols[1] / a.inner); c++) {
      const path = `/image.zarr/${array}/c/${Math.floor(r / grid)}/${Math.floor(c / grid)}`;
      if (!out.has(path)) out.set(path, new Set());
      out.get(path).add((r % grid) * grid + (c % grid));
    }
  }
  return out;
}

/** [start, end) of a request's range on a file of `size` bytes (the whole file without one). */
function rangeOf(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (!m) return [0, size];
  if (m[1] === "") return [Math.max(0, size - Number(m[2])), size];
  return [Number(m[1]), m[2] === "" ? size : Math.min(size, Number(m[2]) + 1)];
}

/**
 * Where the target's time went, from the server's log: the requests that
 * carried its bytes (its inner chunks, or its shards' indexes) and the
 * round trips they waited for in a row; what the link carried between the
 * target's start and its end (each answer's bytes spread evenly from its
 * first byte to its end), and how much of that was the target's; when its
 * last answer was sent, and the time after (decoding and placing).
 * @param {object} run          runScenario's
 * @param {object[]} log        the server's log of the run
 * @param {ReturnType<typeof shardLayout>} layout
 */
export function whereTimeWent(run, log, layout) {
  const { targetMs, targetStartMs } = runFacts(run);
  if (targetMs === undefined) return undefined;
  const target = run.groups.find((g) => g.group === run.target);
  const from = run.t0 + targetStartMs;
  const to = from + targetMs;
  const wanted = new Map();
  for (const sel of target.sels) {
    for (const [path, set] of chunksOf(layout, target.array, sel)) {
      if (!wanted.has(path)) wanted.set(path, new Set());
      for (const k of set) wanted.get(path).add(k);
    }
  }
  let neededBytes = 0;
  for (const [path, set] of wanted) {
    const shard = layout.shards.get(path);
    neededBytes += shard.size - shard.indexStart;
    for (const k of set) neededBytes += shard.chunks[k].length;
  }
  const forTarget = [];
  let linkBytes = 0;
  let targetLinkBytes = 0;
  for (const e of log) {
    if (e.dropped) continue;
    const shard = layout.shards.get(e.path);
    const set = wanted.get(e.path);
    let targetBytes = 0;
    let touches = false;
    let carriesChunks = false;
    if (shard && set) {
      if (e.method === "HEAD") touches = true;
      else {
        const [start, end] = rangeOf(e.range, shard.size);
        if (end > shard.indexStart) {
          touches = true;
          targetBytes += end - Math.max(start, shard.indexStart);
        }
        for (const k of set) {
          const c = shard.chunks[k];
          const overlap = Math.min(end, c.offset + c.length) - Math.max(start, c.offset);
          if (overlap > 0) {
            touches = true;
            carriesChunks = true;
            targetBytes += overlap;
          }
        }
        // An aborted answer carried only its first e.bytes.
        targetBytes = Math.min(targetBytes, e.bytes);
      }
    }
    if (touches && e.endMs > from && e.startMs < to) forTarget.push({ ...e, carriesChunks });
    // The share of this answer's bytes sent within [from, to].
    const first = e.firstByteMs ?? e.endMs;
    const span = e.endMs - first;
    const share = span <= 0 ? (first >= from && first <= to ? 1 : 0) : Math.max(0, Math.min(to, e.endMs) - Math.max(from, first)) / span;
    linkBytes += e.bytes * share;
    targetLinkBytes += targetBytes * share;
  }
  const answered = forTarget.filter((e) => !e.aborted);
  const sorted = [...answered].sort((a, b) => a.startMs - b.startMs);
  const waves = [];
  for (let i = 0; i < sorted.length; i++) {
    let w = 1;
    for (let j = 0; j < i; j++) if (sorted[j].endMs <= sorted[i].startMs) w = Math.max(w, waves[j] + 1);
    waves.push(w);
  }
  // The last answer that brought the target's chunks (another array of
  // the same shards, opened at another priority, asks for the shard's
  // index too, and the log cannot tell whose it was).
  const bringing = answered.filter((e) => e.carriesChunks);
  const lastAnswer = Math.max(from, ...(bringing.length ? bringing : answered).map((e) => e.endMs));
  return {
    targetMs,
    requests: answered.length,
    // When the first of them reached the server (a client's own queue
    // holds them before), and the longest one waited there for a turn.
    firstAskMs: answered.length ? Math.min(...answered.map((e) => e.startMs)) - from : undefined,
    turnWaitMs: Math.max(0, ...answered.map((e) => e.turnMs - e.startMs)),
    waves: Math.max(0, ...waves),
    linkBytes,
    targetLinkBytes,
    neededBytes,
    lastAnswerMs: lastAnswer - from,
    afterMs: to - lastAnswer,
  };
}

/** The run's requests on a timeline: one line each, with its flags. */
export function sessionTimeline(log, t0) {
  return [...log]
    .sort((a, b) => a.startMs - b.startMs)
    .map((e) => {
      const what = `${e.method} ${e.path.replace(/^\/image\.zarr\//, "")} ${e.range ?? ""}`.trim();
      const flag = e.dropped ? " dropped" : e.aborted ? ` aborted after ${e.bytes} B` : ` ${e.bytes} B`;
      const first = e.firstByteMs === undefined ? "" : ` first byte ${(e.firstByteMs - t0).toFixed(1)}`;
      const turn = e.turnMs === undefined ? "no turn" : `turn ${(e.turnMs - t0).toFixed(1)}`;
      return `    ${(e.startMs - t0).toFixed(1).padStart(7)} (${turn}${first}) .. ${(e.endMs - t0).toFixed(1).padStart(7)} ms  ${what}${flag}`;
    });
}
