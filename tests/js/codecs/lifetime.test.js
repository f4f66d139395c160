// The codecs own their C++ side (tests/soak/lifetime.mjs, in its own
// process with --expose-gc): dropped or disposed, 100,000 of them leave
// the wasm heap, embind's handles and the live C++ codec count as they were.
import { expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { ROOT } from "../support/browser.js";

jest.setTimeout(300000);

test("100,000 codecs created and dropped, 100,000 disposed: nothing grows", () => {
  const out = execFileSync("node", ["--expose-gc", "tests/soak/lifetime.mjs", "100000"], { cwd: ROOT, encoding: "utf8" });
  process.stdout.write(`${out.split("\n").slice(0, -2).join("\n")}\n`);
  const { before, dropped, disposed, burst, peak, afterDispose } = JSON.parse(out.trim().split("\n").pop());
  expect(peak).toBeGreaterThan(0); // they were alive, then collected
  for (const s of [dropped, disposed]) {
    expect(s.wasmHeapBytes).toBe(before.wasmHeapBytes);
    expect(s.liveCodecs).toBe(before.liveCodecs);
    expect(s.embindHandles).toBe(before.embindHandles);
  }
  // Left to V8's own collections, none stays alive either (the heap may
  // have grown to hold those alive between collections).
  expect(burst.liveCodecs).toBe(before.liveCodecs);
  expect(burst.embindHandles).toBe(before.embindHandles);
  expect(afterDispose).toBe("DISPOSED: packbits: this codec was disposed; create a new one with fromConfig()");
});
