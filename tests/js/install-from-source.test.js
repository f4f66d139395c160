// Installing the sources instead of a tarball, as people try before a
// release: `npm install <folder>` of an unbuilt copy and `npm install
// <git URL>`. Either the install works (npm's prepare builds the wasm where
// Emscripten is) or it stops with a message that says how to build; never
// an installed package whose first import fails with ERR_MODULE_NOT_FOUND.
// The copy is this working tree's tracked files (what a clone holds), so
// uncommitted changes are tested too.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "./support/browser.js";

// The git-URL install builds both wasm modules and the compression libraries
// from scratch in npm's clone: minutes on a shared two-core machine.
jest.setTimeout(900000);
let scratch;
let source;

function project(name) {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  return dir;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-install-"));
  source = join(scratch, "zarr-codecs-wasm");
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(source, file)), { recursive: true });
    cpSync(join(ROOT, file), join(source, file));
  }
  const git = (...args) => execFileSync("git", args, { cwd: source, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-qm", "the sources");
});

const cleanups = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("a folder install of sources that cannot be built here stops and says how to build", () => {
  // The copy has no node_modules, so its build tools are missing.
  const consumer = project("folder-consumer");
  const run = spawnSync("npm", ["install", "--no-audit", "--no-fund", source], {
    cwd: consumer,
    encoding: "utf8",
    env: { ...process.env, ZCW_THIRD_PARTY: "" }, // the copy's own third_party/, which it lacks
  });
  expect(run.status).not.toBe(0);
  expect(run.stderr).toContain("zarr-codecs-wasm: cannot build the WebAssembly module here (prepare).");
  expect(run.stderr).toContain(`the npm dev dependencies (no node_modules/.bin/esbuild in ${source})`);
  expect(run.stderr).toContain("then install this folder again, or the tarball npm pack makes there.");
  expect(run.stderr).toContain(`the compression libraries' sources (none in ${source}/third_party; bash scripts/fetch-compressor-sources.sh fetches them`);
  // Every step, in order, the sources' fetch included; and no claim that
  // the package is on npm (it is not yet).
  const steps = [
    "1. install Emscripten (Debian, Ubuntu: sudo apt-get install emscripten)",
    `2. cd '${source}' && bash scripts/fetch-compressor-sources.sh   (the compression libraries' sources)`,
    "3. npm install   (there: it builds the wasm; on Debian, bash scripts/setup.sh does all three)",
  ];
  const at = steps.map((step) => run.stderr.indexOf(step));
  expect(at.every((i) => i > -1)).toBe(true);
  expect(at).toEqual([...at].sort((a, b) => a - b));
  expect(run.stderr).toContain('To build it, in order (docs/development.md, "Building"; other systems: "Without apt"):');
  expect(run.stderr).toContain("The package is not on npm yet: building it is the way to install it.");
  expect(run.stderr).not.toMatch(/npm install zarr-codecs-wasm|needs none of this/);
});

test("a folder install with --ignore-scripts (no build) imports, and ready() says how to build", () => {
  const consumer = project("ignore-scripts-consumer");
  execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", source], { cwd: consumer, stdio: "ignore" });
  const out = execFileSync(
    "node",
    [
      "--input-type=module",
      "-e",
      `import { ready, ZarrCodecError } from "zarr-codecs-wasm";
       const failure = await ready().then(() => "loaded", (e) => e);
       console.log(JSON.stringify({ ours: failure instanceof ZarrCodecError, code: failure.code, message: failure.message }));`,
    ],
    { cwd: consumer, encoding: "utf8" },
  );
  const { ours, code, message } = JSON.parse(out);
  expect({ ours, code }).toEqual({ ours: true, code: "WASM_LOAD_FAILED" });
  expect(message).toMatch(/^zarr-codecs-wasm: dist\/zarr-codecs-wasm(\.inline)?\.mjs is missing: this copy of the package was installed from its sources without building/);
  expect(message).toContain("run npm install in the clone (it builds the wasm with Emscripten; npm run build rebuilds it)");
  expect(message).toContain('see "Install" in the README');
});

test("without Emscripten, the message says to install it", () => {
  // PATH holds what the script runs besides shell builtins, and no emcmake.
  const bin = join(scratch, "bin-without-emscripten");
  mkdirSync(bin);
  for (const tool of ["bash", "dirname"]) {
    symlinkSync(execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(), join(bin, tool));
  }
  const run = spawnSync("bash", [join(source, "scripts/prepare.sh"), "prepare"], {
    encoding: "utf8",
    env: { ...process.env, PATH: bin },
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("- Emscripten (emcmake is not on PATH)");
  expect(run.stderr).toContain("install Emscripten (Debian, Ubuntu: sudo apt-get install emscripten)");
});

test("in npm's temporary clone of a git dependency, the message points at a clone of one's own", () => {
  // npm builds git dependencies in ~/.npm/_cacache/tmp/git-clone*, gone by
  // the time the message is read.
  const clone = join(scratch, "_cacache", "tmp", "git-cloneAbc123");
  mkdirSync(join(clone, "scripts"), { recursive: true });
  cpSync(join(source, "scripts/prepare.sh"), join(clone, "scripts/prepare.sh"));
  const run = spawnSync("bash", [join(clone, "scripts/prepare.sh"), "prepare"], {
    encoding: "utf8",
    env: { ...process.env, PATH: join(scratch, "bin-without-emscripten") },
  });
  expect(run.status).toBe(1);
  const steps = [
    "1. install Emscripten (Debian, Ubuntu: sudo apt-get install emscripten)",
    "2. git clone the repository, and in the clone: bash scripts/fetch-compressor-sources.sh",
    "3. npm install && npm pack   (in the clone: builds the wasm, then packs it)",
  ];
  const at = steps.map((step) => run.stderr.indexOf(step));
  expect(at.every((i) => i > -1)).toBe(true);
  expect(at).toEqual([...at].sort((a, b) => a - b));
  expect(run.stderr).not.toContain(`cd '${clone}'`);
  expect(run.stderr).not.toMatch(/npm install zarr-codecs-wasm|needs none of this/);
});

test("prepack refuses to pack without building", () => {
  const bin = join(scratch, "bin-without-emscripten");
  const run = spawnSync("bash", [join(source, "scripts/prepare.sh"), "prepack"], {
    encoding: "utf8",
    env: { ...process.env, PATH: bin },
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("cannot build the WebAssembly module here (prepack)");
});

test("a git URL install builds the wasm (Emscripten is here) and the package decodes", () => {
  const consumer = project("git-consumer");
  // npm leaves its temporary clones behind in its cache: remove this run's.
  const npmTmp = join(execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim(), "_cacache", "tmp");
  const before = new Set(existsSync(npmTmp) ? readdirSync(npmTmp) : []);
  cleanups.push(() => {
    for (const name of existsSync(npmTmp) ? readdirSync(npmTmp) : []) {
      if (!before.has(name) && name.startsWith("git-clone")) rmSync(join(npmTmp, name), { recursive: true, force: true });
    }
  });
  // The clone npm builds has no compression libraries' sources (they are
  // fetched, never committed): it builds against this tree's download.
  const thirdParty = process.env.ZCW_THIRD_PARTY || join(ROOT, "third_party");
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", `git+file://${source}`], {
    cwd: consumer,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ZCW_THIRD_PARTY: thirdParty },
  });
  const out = execFileSync(
    "node",
    [
      "--input-type=module",
      "-e",
      `import { ready, PackBitsCodec } from "zarr-codecs-wasm";
       await ready();
       const c = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
       console.log([...c.decode(Uint8Array.of(0xbc, 0x3a, 0x12)).data].join(","));`,
    ],
    { cwd: consumer, encoding: "utf8" },
  );
  expect(out.trim()).toBe(`${0xabc},${0x123}`); // BC 3A 12, the packbits page's bit order worked by hand
});
