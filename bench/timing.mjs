// Side-by-side timing: every contender runs once per round, the order
// rotated each round, the garbage collector run before each (with
// --expose-gc) so no contender pays for another's garbage, and each keeps
// its best round. Machines here are noisy (two shared cores), so only
// ratios of times taken this way are reported.

const gc = globalThis.gc ?? (() => {});

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
export function sideBySide(contenders, { rounds = 15, targetMs = 3 } = {}) {
  const names = Object.keys(contenders);
  const reps = {};
  for (const name of names) {
    batch(contenders[name], 3); // warm up: JIT, wasm tier-up, first touch
    const once = Math.max(batch(contenders[name], 3), 50);
    reps[name] = Math.max(1, Math.min(200000, Math.round((targetMs * 1e6) / once)));
  }
  const best = Object.fromEntries(names.map((n) => [n, Infinity]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      gc();
      best[name] = Math.min(best[name], batch(contenders[name], reps[name]));
    }
  }
  return best;
}

/**
 * The same for contenders that take long enough to time one call each
 * (whole reads): warmed up once, then one call per round, best kept.
 * @param {Record<string, () => Promise<unknown>>} contenders
 * @param {number} rounds
 * @returns {Promise<Record<string, number>>} best milliseconds of each
 */
export async function sideBySideAsync(contenders, rounds) {
  const names = Object.keys(contenders);
  for (const name of names) await contenders[name](); // warm up
  const best = Object.fromEntries(names.map((n) => [n, Infinity]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      gc();
      const t0 = process.hrtime.bigint();
      await contenders[name]();
      best[name] = Math.min(best[name], Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return best;
}
