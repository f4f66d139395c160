// The order Jest starts the suites in (jest.config.js's testSequencer):
// the longest first, so that no long suite starts last and runs alone
// while the other workers sit idle. Jest's own order does this only from
// the durations it cached in an earlier run (its cache directory); a fresh
// machine, as CI is, has none, and Jest then goes by file size, which
// started install-from-source (a small file, 100 s) near the end.
//
// A suite's expected time is, in this order: what Jest cached from the last
// run here; SLOW_SUITES below; else NEW_SUITE_SECONDS, which puts a new
// suite after the known long ones and before the short ones (the largest
// file first among equals). Suites that failed in the last run still go
// first, as in Jest's order. Add a suite to SLOW_SUITES when it takes 8 s
// or more in `npm run test:js` on a 2-core machine.
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import sequencerModule from "@jest/test-sequencer";

// (A CommonJS module: its class is the `default` export.)
const TestSequencer = sequencerModule.default ?? sequencerModule;
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Seconds each suite took with two Jest workers on a 2-core machine (for the order only). */
export const SLOW_SUITES = {
  "tests/js/reliability/fuzzers.test.js": 85,
  "tests/js/install-from-source.test.js": 82,
  "tests/js/browser/bundlers.test.js": 57,
  "tests/js/browser/browser-viewer.test.js": 52,
  "tests/js/browser/browser-viewer-layout.test.js": 47,
  "tests/js/browser/browser-viewer-n5.test.js": 39,
  "tests/js/lock-files.test.js": 29,
  "tests/js/reliability/hostile-compressed.test.js": 27,
  "tests/js/browser/first-tile.test.js": 23,
  "tests/js/packaging-types.test.js": 15,
  "tests/js/browser/fizarrita.test.js": 15,
  "tests/js/docs/code-blocks.test.js": 14,
  "tests/js/browser/browser-viewer-errors.test.js": 14,
  "tests/js/packaging.test.js": 12,
  "tests/js/reliability/many-failures.test.js": 12,
  "tests/js/browser/browser-reliability.test.js": 12,
  "tests/js/read/network-composition.test.js": 11,
  "tests/js/zarrita/cast-scale-stores.test.js": 11,
  "tests/js/browser/cors.test.js": 11,
  "tests/js/examples-temp-files.test.js": 10,
  "tests/js/zarrita-types.test.js": 10,
  "tests/js/browser/browser-viewer-tables.test.js": 9,
  "tests/js/zarrita/compressed-writes.test.js": 9,
  "tests/js/docs/examples-typecheck.test.js": 9,
  "tests/js/zarrita/n5.test.js": 8,
  "tests/js/browser/typescript-vite.test.js": 8,
  "tests/js/codecs/packbits-codec.test.js": 8,
  "tests/js/reliability/memory-recycle.test.js": 8,
};

const NEW_SUITE_SECONDS = 8;

export default class LongestFirstSequencer extends TestSequencer {
  sort(tests) {
    // Jest's own sort also records each suite's cached time on it, which
    // Jest reads to decide whether to run in band.
    super.sort(tests);
    const size = new Map(tests.map((test) => [test.path, test.context.hasteFS.getSize(test.path) ?? 0]));
    const expected = (test) => {
      const cached = this.time(test);
      if (cached != null) return cached / 1000;
      return SLOW_SUITES[relative(ROOT, test.path).split("\\").join("/")] ?? NEW_SUITE_SECONDS;
    };
    const seconds = new Map(tests.map((test) => [test.path, expected(test)]));
    return [...tests].sort((a, b) =>
      Number(this.hasFailed(b)) - Number(this.hasFailed(a)) ||
      seconds.get(b.path) - seconds.get(a.path) ||
      size.get(b.path) - size.get(a.path));
  }
}
