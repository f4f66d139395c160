// What the suites of one Jest run share: a folder made before the first
// suite starts and removed after the last ends (jest.config.js's
// globalSetup and globalTeardown, below), where `oncePerRun` keeps work
// that every suite would otherwise repeat, such as packing the package
// (support/consumer.js). The workers find the folder through
// ZCW_TEST_RUN_DIR, which Jest's workers inherit from the process that ran
// the global setup. Outside such a run (no ZCW_TEST_RUN_DIR), every caller
// does the work itself.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const VARIABLE = "ZCW_TEST_RUN_DIR";
// How long a suite waits for another process doing the same work.
const WAIT_MS = 10 * 60 * 1000;

export function globalSetup() {
  process.env[VARIABLE] = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-test-run-"));
}

export function globalTeardown() {
  const dir = process.env[VARIABLE];
  if (dir) rmSync(dir, { recursive: true, force: true });
  delete process.env[VARIABLE];
}

/** The run's shared folder, or undefined outside a Jest run with the global setup. */
function testRunFolder() {
  const dir = process.env[VARIABLE];
  return dir && existsSync(dir) ? dir : undefined;
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * `make(folder)`'s result (JSON), made once per run by whichever process
 * asks first, in a folder of its own under the run's folder; the others
 * wait for it (synchronously: callers may be synchronous). A `make` that
 * throws fails every caller with its message. Outside a run: `make` into
 * `fallbackFolder`, every time.
 */
export function oncePerRun(name, make, fallbackFolder) {
  const run = testRunFolder();
  if (!run) return make(fallbackFolder);
  const folder = join(run, name);
  const result = join(run, `${name}.json`);
  const failure = join(run, `${name}.failed`);
  let mine = false;
  try {
    mkdirSync(folder);
    mine = true;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  }
  if (mine) {
    try {
      const value = make(folder);
      writeFileSync(`${result}.partial`, JSON.stringify(value));
      renameSync(`${result}.partial`, result);
      return value;
    } catch (error) {
      writeFileSync(failure, String(error?.stack ?? error));
      throw error;
    }
  }
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; sleep(100)) {
    if (existsSync(result)) return JSON.parse(readFileSync(result, "utf8"));
    if (existsSync(failure)) throw new Error(`${name}, made by another suite of this run, failed:\n${readFileSync(failure, "utf8")}`);
  }
  throw new Error(`${name}: another suite of this run has been making it for ${WAIT_MS / 60000} minutes`);
}
