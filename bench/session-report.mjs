// The tables of a viewer's session (bench/session.mjs in Node,
// bench/session-browser.mjs in Chromium): each scenario's median times as
// issue 41's table gives them, requests and MiB moved, issue 41's goals
// met or not for the package's readers, failures, hangs and unhandled
// rejections, and where the time went (session-cases.mjs's whereTimeWent).
import { mib } from "./network-cases.mjs";
import { sessionTimeline } from "./session-cases.mjs";

/** The readers' column titles, in the table's order. */
export const readerTitles = {
  zarrita: "zarrita alone",
  coalesce: "zarrita + withRangeCoalescing",
  read: "read (with a chunk cache)",
  scheduler: "read with a scheduler",
  wrapper: "zarr.get, withScheduler",
};

const f2 = (x) => (x === undefined ? "-" : x.toFixed(2));
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : undefined);

/**
 * Medians per scenario, variant ("together", "alone") and reader of the
 * runs `results[scenario][variant][reader]` (each a run's facts: targetMs,
 * requests, dropped, aborted, bytes, failedByAbort, failed, hung, quiet,
 * where, stats); failures and hangs summed.
 */
export function summarise(results) {
  const out = {};
  for (const [scenario, variants] of Object.entries(results)) {
    out[scenario] = {};
    for (const [variant, perReader] of Object.entries(variants)) {
      out[scenario][variant] = {};
      for (const [name, runs] of Object.entries(perReader)) {
        const ok = runs.filter((x) => x.targetMs !== undefined);
        // The run whose time is the median's, for where the time went.
        const ms = median(ok.map((x) => x.targetMs));
        const mid = ok.find((x) => x.targetMs === ms);
        out[scenario][variant][name] = {
          ms,
          rounds: runs.length,
          okRounds: ok.length,
          requests: median(runs.map((x) => x.requests)),
          dropped: median(runs.map((x) => x.dropped)),
          aborted: median(runs.map((x) => x.aborted)),
          bytes: median(runs.map((x) => x.bytes)),
          failedByAbort: runs.reduce((n, x) => n + x.failedByAbort.length, 0),
          failed: runs.flatMap((x) => x.failed),
          failedKinds: [...new Set(runs.flatMap((x) => x.failedByAbort.map((f) => f.replace(/^[^:]*: /, ""))))],
          hangs: runs.filter((x) => x.hung).length,
          notQuiet: runs.filter((x) => !x.quiet).length,
          where: mid?.where,
          stats: mid?.stats,
        };
      }
    }
  }
  return out;
}

/**
 * Prints a rate's tables: the scenarios as issue 41's table gives them,
 * requests and MiB, the goals for the package's readers, failures and
 * unhandled rejections, where the time went, the schedulers' stats.
 * @param {object} r
 * @param {string} r.header
 * @param {ReturnType<typeof summarise>} r.summary
 * @param {number} r.rate                 MB/s (Infinity: no link)
 * @param {Record<string, {title: string, built?: boolean}>} r.readers  zarrita, coalesce, read, scheduler, wrapper
 * @param {{name: string, label: string}[]} r.scenarios
 * @param {Record<string, {count: number, kinds: Map<string, number>}>} r.unhandled  per reader
 * @param {(line?: string) => void} out
 */
export function printSession({ header, summary, rate, readers, scenarios, unhandled }, out) {
  const names = Object.keys(readers);
  const built = names.filter((n) => readers[n].built !== false);
  const f = (x) => (x === undefined ? "-" : x < 10 ? x.toFixed(1) : x.toFixed(0));
  const cell = (name, scenario) => {
    if (readers[name].built === false) return "not built";
    const t = summary[scenario].together[name];
    const a = summary[scenario].alone[name];
    const fails = t.okRounds < t.rounds ? `fails (${t.rounds - t.okRounds} of ${t.rounds}${t.failedKinds.length ? `: ${t.failedKinds[0]}` : t.hangs ? ": hang" : ""}) ` : "";
    const times = `${fails}${f(t.ms)} (${f(a.ms)})`;
    return scenario === "fling" ? `${times}; ${mib(t.bytes)} (${mib(a.bytes)})` : times;
  };
  const row = (cells) => `| ${cells.join(" | ")} |`;
  out(`\n== ${header}; ms`);
  out(row(["scenario", ...names.map((n) => readers[n].title)]));
  out(row(["---", ...names.map(() => "---")]));
  for (const s of scenarios) out(row([s.label, ...names.map((n) => cell(n, s.name))]));
  out("\nRequests served, dropped (never served: their client went away), aborted while sent; MiB moved. Median of the rounds; alone in brackets.");
  out(row(["scenario", ...names.map((n) => readers[n].title)]));
  out(row(["---", ...names.map(() => "---")]));
  for (const s of scenarios) {
    out(
      row([
        s.name,
        ...names.map((n) => {
          if (readers[n].built === false) return "not built";
          const t = summary[s.name].together[n];
          const a = summary[s.name].alone[n];
          return `${t.requests}, ${t.dropped}, ${t.aborted}; ${mib(t.bytes)} MiB (${a.requests}, ${a.dropped}, ${a.aborted}; ${mib(a.bytes)} MiB)`;
        }),
      ]),
    );
  }

  // Issue 41's goals, for the package's readers.
  out("\nGoals (issue 41), per reader:");
  const ms = (s, v, n) => summary[s][v][n]?.ms;
  const better = (s) => Math.min(...["zarrita", "coalesce"].map((n) => ms(s, "together", n)).filter((x) => x !== undefined));
  const verdict = (ok) => (ok === undefined ? "n/a" : ok ? "met" : "NOT met");
  for (const n of ["read", "scheduler", "wrapper"].filter((r) => readers[r])) {
    if (readers[n].built === false) {
      out(`  ${readers[n].title}: not built`);
      continue;
    }
    const lines = [];
    for (const s of ["prefetch", "levels"]) {
      const t = ms(s, "together", n);
      const a = ms(s, "alone", n);
      const vsAlone = t !== undefined && a !== undefined ? t / a : undefined;
      const faster = t !== undefined ? better(s) / t : undefined;
      lines.push(`${s}: <= 1.15x alone (${f2(vsAlone)}x) ${verdict(vsAlone === undefined ? undefined : vsAlone <= 1.15)}; >= 1.4x faster than the better zarrita (${f2(faster)}x) ${verdict(faster === undefined ? undefined : faster >= 1.4)}`);
    }
    {
      const t = summary.fling.together[n];
      const a = summary.fling.alone[n];
      const vsAlone = t.ms !== undefined && a.ms !== undefined ? t.ms / a.ms : undefined;
      const bytes = t.bytes / a.bytes;
      const z = ms("fling", "together", "zarrita");
      const vsZarrita = t.ms !== undefined && z !== undefined ? z / t.ms : undefined;
      lines.push(`fling: <= 1.25x that viewport alone (${f2(vsAlone)}x) ${verdict(vsAlone === undefined ? undefined : vsAlone <= 1.25)}; bytes <= 2.5x its bytes (${f2(bytes)}x) ${verdict(bytes <= 2.5)}; no slower than zarrita (${f2(vsZarrita)}x) ${verdict(vsZarrita === undefined ? undefined : vsZarrita >= 1)}`);
    }
    if (n === "scheduler") {
      const parts = scenarios.map((s) => {
        const without = ms(s.name, "alone", "read");
        const withIt = ms(s.name, "alone", "scheduler");
        const x = without !== undefined && withIt !== undefined ? without / withIt : undefined;
        return [`${s.name} alone ${f2(x)}x`, x === undefined ? undefined : x >= 0.95];
      });
      lines.push(`one read with a scheduler >= 0.95x without (${parts.map(([t]) => t).join(", ")}) ${verdict(parts.some(([, ok]) => ok === undefined) ? undefined : parts.every(([, ok]) => ok))}`);
    }
    const all = scenarios.flatMap((s) => ["together", "alone"].map((v) => summary[s.name][v][n]));
    const rejections = unhandled[n]?.count ?? 0;
    const byAbort = all.reduce((x, r) => x + r.failedByAbort, 0);
    const hangs = all.reduce((x, r) => x + r.hangs, 0);
    const failed = all.reduce((x, r) => x + r.failed.length, 0);
    lines.push(`everywhere: values right (checked) met; ${rejections} unhandled rejections, ${hangs} hangs, ${byAbort} reads failed by another read's abort, ${failed} failed otherwise ${verdict(rejections + hangs + byAbort + failed === 0)}`);
    out(`  ${readers[n].title}:`);
    for (const l of lines) out(`    ${l}`);
  }

  out("\nFailures, hangs and unhandled rejections (all rounds, this rate and those before):");
  for (const n of built) {
    const all = scenarios.flatMap((s) => ["together", "alone"].map((v) => [`${s.name}${v === "alone" ? " alone" : ""}`, summary[s.name][v][n]]));
    const notes = [];
    for (const [what, r] of all) {
      if (r.failedByAbort) notes.push(`${what}: ${r.failedByAbort} reads failed by another read's abort (${r.failedKinds.join("; ")})`);
      if (r.failed.length) notes.push(`${what}: ${r.failed.length} failed (${[...new Set(r.failed)].slice(0, 2).join("; ")})`);
      if (r.hangs) notes.push(`${what}: ${r.hangs} hangs`);
      if (r.notQuiet) notes.push(`${what}: the server still busy 10 s after ${r.notQuiet} runs`);
    }
    const u = unhandled[n];
    if (u) notes.push(`${u.count} unhandled rejections (${[...u.kinds].map(([k, c]) => `${c} x ${k}`).join("; ")})`);
    out(`  ${readers[n].title}: ${notes.length ? notes.join("; ") : "none"}`);
  }

  out("\nWhere the time went (each reader's median run): the measured reads' requests (when the first reached the server, the round trips they waited for in a row, the longest wait for a turn under the cap); what the link carried from their start to their end, and theirs of it (what they need at least: their chunks and their shards' indexes); their last answer, and the time after it (decode, placement).");
  for (const s of scenarios) {
    for (const variant of ["together", "alone"]) {
      for (const n of built) {
        const w = summary[s.name][variant][n].where;
        const what = `${s.name}${variant === "alone" ? " alone" : ""}, ${readers[n].title}`;
        if (!w) {
          out(`  ${what}: -`);
          continue;
        }
        const linkMs = Number.isFinite(rate) ? ` (${f(w.linkBytes / (rate * 1e6) * 1000)} ms of the link)` : "";
        const first = w.firstAskMs === undefined ? "" : `, the first at the server at ${f(w.firstAskMs)} ms`;
        out(`  ${what}: ${f(w.targetMs)} ms; ${w.requests} requests${first}, in ${w.waves} round trips in a row, waiting up to ${f(w.turnWaitMs)} ms for a turn at the server; the link carried ${mib(w.linkBytes)} MiB${linkMs}, ${mib(w.targetLinkBytes)} of it theirs (they need ${mib(w.neededBytes)}); last answer at ${f(w.lastAnswerMs)} ms, then ${f(w.afterMs)} ms`);
      }
    }
  }
  if (readers.scheduler?.built || readers.wrapper?.built) {
    out("\nscheduler.stats() after each reader's median run:");
    for (const s of scenarios) for (const n of ["scheduler", "wrapper"]) if (readers[n]?.built) out(`  ${s.name}, ${readers[n].title}: ${JSON.stringify(summary[s.name].together[n].stats)}`);
  }
}

/** Each reader's median run of each scenario, request by request (--trace). */
export function printTraces({ results, readers, scenarios }, out) {
  const built = Object.keys(readers).filter((n) => readers[n].built !== false);
  for (const s of scenarios) {
    for (const n of built) {
      const runs = results[s.name].together[n];
      const ok = runs.filter((x) => x.targetMs !== undefined);
      const ms = median(ok.map((x) => x.targetMs));
      const run = ok.find((x) => x.targetMs === ms) ?? runs[0];
      out(`\n-- ${s.name}, ${readers[n].title}: ${ms === undefined ? "failed" : `${ms.toFixed(1)} ms`}; waves start at ${run.run.groups.map((g) => `${g.group} ${g.startMs.toFixed(1)}`).join(", ")}`);
      for (const line of sessionTimeline(run.log, run.run.t0)) out(line);
    }
  }
}
