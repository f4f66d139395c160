// read()'s codecs belong to the array they read (tests/soak/read-lifetime.mjs,
// in its own process with --expose-gc): collections between reads never
// free one it still uses, and dropped arrays free theirs.
import { expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { ROOT } from "../support/browser.js";

jest.setTimeout(120000);

test("codecs outlive every collection while their array lives, and no longer", () => {
  const out = execFileSync("node", ["--expose-gc", "tests/soak/read-lifetime.mjs", "20"], { cwd: ROOT, encoding: "utf8" });
  const { wrong, liveBefore, liveWhileHeld, liveAfterDrop } = JSON.parse(out.trim().split("\n").pop());
  expect(wrong).toBe(0);
  expect(liveWhileHeld).toBeGreaterThan(liveBefore); // each array's plan holds its codecs
  expect(liveAfterDrop).toBe(liveBefore);
});
