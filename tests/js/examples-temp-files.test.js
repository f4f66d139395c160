// The demo and every Node example write their stores into the temporary
// folder and leave nothing there, also when a read fails. The children get
// a temporary folder of their own (TMPDIR), watched: other suites running
// alongside make and remove zarr-codecs-wasm-* folders in the shared one,
// and the watch shows the children did write there (the check is not
// vacuous).
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./support/browser.js";

jest.setTimeout(120000);
const PATTERN = /zarr-codecs-wasm/;
const ours = (dir) => readdirSync(dir).filter((name) => PATTERN.test(name)).sort();

// Every example, the demo, and a run that fails after writing its store.
const RUNS = [
  ["examples/demo.mjs"],
  ...readdirSync(join(ROOT, "examples/node")).filter((f) => f.endsWith(".mjs")).map((f) => [`examples/node/${f}`]),
  ["examples/node/read-local-store.mjs", "--sample", "nowhere"],
];

let temp;
beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), "examples-temp-check-"));
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

test("the demo and every example leave the temporary folder as they found it", async () => {
  const shared = ours(tmpdir());
  const before = ours(temp);
  const created = new Set();
  const watcher = watch(temp, (_, name) => name && created.add(name));
  const results = [];
  for (const [script, ...args] of RUNS) {
    results.push(await promisify(execFile)("node", [script, ...args], { cwd: ROOT, env: { ...process.env, TMPDIR: temp } })
      .then(() => 0, (error) => error.code));
  }
  await new Promise((resolve) => setTimeout(resolve, 200)); // the last watch events
  watcher.close();
  expect(results).toEqual(RUNS.map((r) => (r.includes("nowhere") ? 1 : 0)));
  expect(ours(temp)).toEqual(before);
  expect([...created].filter((n) => /^zarr-codecs-wasm-(demo|example)-/.test(n)).length).toBeGreaterThanOrEqual(3);
  // and nothing of theirs reached the shared folder (the prefixes only the examples use)
  const examplesOnly = (names) => names.filter((n) => /^zarr-codecs-wasm-(demo|example)-/.test(n));
  expect(examplesOnly(ours(tmpdir()))).toEqual(examplesOnly(shared));
});
