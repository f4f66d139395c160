// The image the network benchmarks read (bench/make-network-store.py: a
// 4096 x 4096 uint16 zstd image, sharded and unsharded, and its 1/4 level)
// written into a temp folder of its own, which goes when the benchmark
// ends or is stopped by a signal; its files in memory as the loopback
// server serves them, and the values as written. For bench/network.mjs,
// bench/session.mjs and their Chromium twins.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadFolder } from "./network-files.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * @param {string} name  the temp folder's name ("network", "session-browser", ...)
 * @param {boolean} quick  the quick run's store
 * @returns {{dir: string, storeDir: string, files: Map<string, Uint8Array>, expected: Uint16Array, side: number, remove: () => void}}
 */
export function networkStore(name, quick) {
  const dir = mkdtempSync(join(tmpdir(), `zarr-codecs-wasm-${name}-`));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  // Stopped by a signal, the temp folder goes too.
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      remove();
      process.exit(130);
    });
  }
  const storeDir = join(dir, "store");
  mkdirSync(storeDir);
  try {
    execFileSync("/usr/bin/python3", [join(root, "bench/make-network-store.py"), storeDir, ...(quick ? ["--quick"] : [])], { stdio: "inherit" });
    const files = loadFolder(join(storeDir, "image.zarr"), "/image.zarr");
    const expected = new Uint16Array(readFileSync(join(storeDir, "expected.u16")).buffer.slice(0));
    return { dir, storeDir, files, expected, side: Math.sqrt(expected.length), remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** "2 cores (AMD EPYC ...), Node v20...": the machine a result was measured on. */
function machineLine() {
  return `${cpus().length} cores (${cpus()[0]?.model?.trim() ?? "unknown CPU"}), Node ${process.version}`;
}

/** The checkout's commit, short ("unknown" outside a git checkout). */
function commitOf() {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/**
 * A full run's results: `bench/<name>-results.md`, the tables as printed
 * after a line saying what was run, when, on what and at which commit
 * (and `facts`, where given); and `bench/<name>-results.json` where `json`
 * is given.
 * @param {string} name
 * @param {string} what   "Reads over a network (bench/network.mjs --rate=6.25)"
 * @param {string[]} lines
 * @param {{facts?: string, json?: object}} [more]
 */
export function writeResults(name, what, lines, { facts, json } = {}) {
  const date = new Date().toISOString().slice(0, 10);
  const machine = machineLine();
  const commit = commitOf();
  const md = [`${what}, measured ${date} on ${machine}, commit ${commit}${facts ? `, ${facts}` : ""}.`, "", "```", ...lines, "```", ""].join("\n");
  writeFileSync(join(root, `bench/${name}-results.md`), md);
  if (json) writeFileSync(join(root, `bench/${name}-results.json`), `${JSON.stringify({ date, machine, commit, ...json }, null, 1)}\n`);
}

const showLoad = (l) => l.map((x) => x.toFixed(2)).join(", ");

/**
 * What a bench prints, kept for its results file: print(line) logs a line
 * and keeps it in `printed`; loadLine() is the load average when the
 * printer was made and now.
 */
export function printer() {
  const printed = [];
  const loadBefore = loadavg();
  return {
    printed,
    print: (line = "") => {
      console.log(line);
      printed.push(line);
    },
    loadLine: () => `load average (1, 5, 15 min) ${showLoad(loadBefore)} before, ${showLoad(loadavg())} after`,
  };
}
