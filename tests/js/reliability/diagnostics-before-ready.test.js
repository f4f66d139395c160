// diagnostics() before anything is loaded: what reads count answers at
// once (nothing yet), and what the wasm instance tells says which call
// needs it and how it loads. On main at 4229392 diagnostics() itself threw
// NOT_READY "...before using the codec classes directly", though no codec
// class was used. This file must not load the module before its first test.
import { expect, test } from "@jest/globals";
import { diagnostics, ready } from "../../../js/index.js";
import { expectCodecError } from "../support/expect-error.js";

test("before the first read: counts answer, instance facts say what loads the module", async () => {
  const d = diagnostics();
  expect(d.reads()).toEqual({ decoded: 0, n5: 0, copied: 0, filled: 0, viaZarrita: 0, decompressed: 0, cached: 0 });
  expect(d.requests().totals.requests).toBe(0);
  expect(d.recycles()).toBe(0);
  expect(d.readScratch().heldBytes).toBe(0);
  for (const call of ["liveInstances", "implementation", "wasmMemoryBytes"]) {
    expectCodecError(
      () => d[call](),
      "NOT_READY",
      `diagnostics().${call}(): the wasm module is not loaded yet (it loads on the first read through the package, or with await ready())`,
    );
  }
  await ready();
  // The same object answers once it is loaded.
  expect(d.implementation()).toBe("simd");
  expect(d.liveInstances()).toBeGreaterThanOrEqual(0);
});
