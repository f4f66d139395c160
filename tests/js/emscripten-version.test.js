// The build warns, and goes on, when emcc is not the version it is tested
// with (scripts/check-emscripten-version.sh, run by scripts/build-wasm.sh;
// docs/development.md, "Emscripten versions"). emcc is a stand-in that
// prints what emcc --version prints.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/browser.js";

const SCRIPT = join(ROOT, "scripts/check-emscripten-version.sh");
let scratch;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-emcc-"));
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

let stands = 0;
function check(firstLine) {
  const bin = join(scratch, `bin-${++stands}`);
  mkdirSync(bin);
  writeFileSync(join(bin, "emcc"), `#!/bin/sh\necho '${firstLine}'\necho 'Copyright (C) 2014 the Emscripten authors (see AUTHORS.txt)'\n`);
  chmodSync(join(bin, "emcc"), 0o755);
  return spawnSync("bash", [SCRIPT], { encoding: "utf8", env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
}

test("Debian bookworm's emcc 3.1.6, as it prints its version: no warning", () => {
  const run = check("emcc (Emscripten gcc/clang-like replacement + linker emulating GNU ld) 3.1.6 ()");
  expect(run).toMatchObject({ status: 0, stdout: "", stderr: "" });
});

test("another version: a warning naming it and the tested one, and the build goes on", () => {
  const run = check("emcc (Emscripten gcc/clang-like replacement + linker emulating GNU ld) 3.1.50 (047b82506d6b471873300a5e4d1e690420b582d0)");
  expect(run.status).toBe(0);
  expect(run.stderr).toContain("zarr-codecs-wasm: warning: emcc 3.1.50 is not a version this build is tested with (3.1.6).");
  expect(run.stderr).toContain('docs/development.md, "Emscripten versions"');
});

test("a version it cannot read: a warning that says so", () => {
  const run = check("emcc: something else entirely");
  expect(run.status).toBe(0);
  expect(run.stderr).toContain("warning: emcc (its version could not be read from emcc --version) is not a version this build is tested with (3.1.6).");
});

test("the build runs the check before configuring", () => {
  const build = readFileSync(join(ROOT, "scripts/build-wasm.sh"), "utf8");
  expect(build.indexOf("bash scripts/check-emscripten-version.sh")).toBeGreaterThan(-1);
  expect(build.indexOf("bash scripts/check-emscripten-version.sh")).toBeLessThan(build.indexOf("emcmake cmake"));
});

test("the docs name the version the check is tested with", () => {
  const tested = /^tested="([^"]+)"/m.exec(readFileSync(SCRIPT, "utf8"))[1];
  expect(tested).toBe("3.1.6");
  expect(readFileSync(join(ROOT, "docs/development.md"), "utf8")).toContain(`Known to work: Emscripten ${tested}`);
});
