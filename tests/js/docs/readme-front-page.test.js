// The README is the front page: what the package is, how to install and
// use it, where the rest is. Detail goes to docs/, so that the page stays
// short enough to read (issue 40: it had grown to 15,890 characters), and
// its Quick start stays the two commands CI and a new contributor run.
import { expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/browser.js";

const README = readFileSync(join(ROOT, "README.md"), "utf8");

test("the README stays under 15,000 characters", () => {
  const characters = [...README].length;
  expect({ characters, under: characters < 15000 }).toEqual({ characters, under: true });
});

test("its Quick start holds exactly the two one-line commands: the demo and the test suite", () => {
  const quickStart = README.slice(README.indexOf("### Quick start"), README.indexOf("\n## ", README.indexOf("### Quick start")));
  const blocks = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].trimEnd().split("\n"));
  expect(blocks).toEqual([[
    "bash scripts/setup.sh && npm run demo   # the demo: write a sample store, read it back through zarrita, check every value, report sizes and speed, compressed and pooled reads",
    "bash scripts/setup.sh && npm test       # the whole test suite: native C++ (ASan/UBSan), fuzz smoke, wasm build, benchmark smoke, Jest (Node and Chromium)",
  ]]);
});
