// The soak (tests/soak/soak.mjs) in its own process, with --expose-gc: the
// wasm heap must not grow at all, embind handles must not accumulate, and
// process memory must settle.
import { expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { ROOT } from "./support/browser.js";

jest.setTimeout(300000);

test("100,000 mixed operations: every result right, memory settles", () => {
  const out = execFileSync("node", ["--expose-gc", "tests/soak/soak.mjs", "100000"], { cwd: ROOT, encoding: "utf8" });
  process.stdout.write(`${out.split("\n").slice(0, -2).join("\n")}\n`);
  const { wrong, checkpoints } = JSON.parse(out.trim().split("\n").pop());
  expect(wrong).toBe(0);
  const first = checkpoints[1]; // after the first 10,000: warm
  for (const c of checkpoints.slice(1)) {
    expect(c.wasmHeapBytes).toBe(first.wasmHeapBytes);
    expect(c.embindHandles).toBe(checkpoints[0].embindHandles);
  }
  // Settled: the second half of the run holds no more than the first did.
  const firstHalf = checkpoints.slice(1, 6);
  const secondHalf = checkpoints.slice(6);
  const most = (list, key) => Math.max(...list.map((c) => c[key]));
  expect(most(secondHalf, "arrayBuffersMiB")).toBeLessThanOrEqual(most(firstHalf, "arrayBuffersMiB") + 8);
  expect(most(secondHalf, "rssMiB")).toBeLessThanOrEqual(most(firstHalf, "rssMiB") + 32);
});
