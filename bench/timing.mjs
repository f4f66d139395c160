// Side-by-side timing: every contender runs once per round, rounds
// interleaved, and each keeps its best round. Machines here are noisy (two
// cores, other jobs), so only ratios of times taken this way are reported.

/** Nanoseconds per call of `fn`, over a batch of `reps` calls. */
function batch(fn, reps) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) fn();
  return Number(process.hrtime.bigint() - t0) / reps;
}

/**
 * @param {Record<string, () => unknown>} contenders
 * @param {{rounds?: number, targetMs?: number}} [options]
 * @returns {Record<string, number>} best ns per call of each
 */
export function sideBySide(contenders, { rounds = 7, targetMs = 4 } = {}) {
  const names = Object.keys(contenders);
  const reps = {};
  for (const name of names) {
    batch(contenders[name], 2); // warm up: JIT, wasm tier-up, first-touch
    const once = Math.max(batch(contenders[name], 3), 50);
    reps[name] = Math.max(1, Math.min(100000, Math.round((targetMs * 1e6) / once)));
  }
  const best = Object.fromEntries(names.map((n) => [n, Infinity]));
  for (let r = 0; r < rounds; r++) {
    for (const name of names) {
      best[name] = Math.min(best[name], batch(contenders[name], reps[name]));
    }
  }
  return best;
}
