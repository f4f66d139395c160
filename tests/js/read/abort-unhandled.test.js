// Aborts at awkward moments leave no rejection unhandled (a Node app exits
// on the first, with the default --unhandled-rejections=throw): a read with
// `dtype` aborted right after it is called, while its plan reads zarr.json;
// a sharded read aborted in the microtasks between its shard's index
// arriving and its ranges being asked of the coalescer. Both go through
// abort-signal.js untilAborted with a signal that has already aborted,
// which returns a rejection at once and never looks at the promise it was
// given; that promise rejects later with no one to see it. Run in a child
// process (tests/js/support/abort-race-probe.mjs), where Node reports them.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "@jest/globals";

test("reads aborted right after the call (dtype) or right after their shard's index arrives leave no rejection unhandled, and every read settles", () => {
  const probe = fileURLToPath(new URL("../support/abort-race-probe.mjs", import.meta.url));
  const out = JSON.parse(execFileSync(process.execPath, [probe], { encoding: "utf8", timeout: 60_000 }).trim().split("\n").at(-1));
  expect(out.settled).toBe(out.reads);
  expect(out.reads).toBe(17);
  expect(out.unhandled).toEqual({ dtype: [], index: [] });
});
