// Installing the sources instead of a tarball, as people try before a
// release: `npm install <folder>` of an unbuilt copy, `npm pack` and
// `npm install <folder>` of a built clone copied elsewhere, and `npm
// install <git URL>`. Either the install works (npm's prepare builds the
// wasm where Emscripten is, or finds dist/ already built from these
// sources) or it stops with a message that says how to build; never an
// installed package whose first import fails with ERR_MODULE_NOT_FOUND.
// The copy is this working tree's tracked files (what a clone holds), so
// uncommitted changes are tested too.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

// What the installed package decodes: BC 3A 12 as packbits with last_bit
// 11 is 0xabc, 0x123 (the packbits page's bit order, worked by hand).
function decodesInstalledPackage(consumer) {
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
  return out.trim();
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

// A built clone copied elsewhere (or moved): its dist/, build/,
// node_modules and compression libraries' sources come along (the last
// two as links to this tree's), and build/wasm's CMake cache names the
// original's folder, which CMake refuses: a pack that builds stops there
// ("CMakeCache.txt directory ... is different"). This tree's build is
// what is copied (the test command builds it first). One copy for the
// tests below: packing and installing leave it as it was, and the last
// test changes only its build/wasm.
let builtCopy;
function copiedBuiltClone() {
  if (builtCopy) return builtCopy;
  const stamp = join(ROOT, "dist", ".stamp");
  // Made by scripts/build-wasm.sh; missing or stale, the copy would build.
  expect({ stamp: existsSync(stamp) && readFileSync(stamp, "utf8") }).toEqual({
    stamp: execFileSync("bash", [join(ROOT, "scripts/dist-stamp.sh")], { encoding: "utf8" }),
  });
  builtCopy = join(scratch, "copied-clone");
  cpSync(source, builtCopy, { recursive: true });
  cpSync(join(ROOT, "dist"), join(builtCopy, "dist"), { recursive: true, dereference: true });
  cpSync(join(ROOT, "build", "wasm"), join(builtCopy, "build", "wasm"), { recursive: true });
  symlinkSync(realpathSync(join(ROOT, "node_modules")), join(builtCopy, "node_modules"), "dir");
  symlinkSync(realpathSync(process.env.ZCW_THIRD_PARTY || join(ROOT, "third_party")), join(builtCopy, "third_party"), "dir");
  return builtCopy;
}

test("a built clone copied elsewhere packs its dist/ as it is, saying so, and the tarball installs and decodes", () => {
  const copy = copiedBuiltClone();
  // npm pack runs prepack, then prepare.
  const run = spawnSync("npm", ["pack", "--json", "--pack-destination", scratch], { cwd: copy, encoding: "utf8" });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
  for (const hook of ["prepack", "prepare"]) {
    expect(run.stderr).toContain(`zarr-codecs-wasm: dist/ is the build of these sources (dist/.stamp matches them): not building it again (${hook})`);
  }
  expect(run.stderr).not.toContain("building the wasm module");
  const [packed] = JSON.parse(run.stdout);
  const consumer = project("copied-clone-consumer");
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", join(scratch, packed.filename)], { cwd: consumer });
  // The tarball's module is the copied one, byte for byte.
  for (const file of ["zarr-codecs-wasm.wasm", "zarr-codecs-wasm.mjs", "zarr-codecs-wasm-encode.wasm"]) {
    const installed = readFileSync(join(consumer, "node_modules", "zarr-codecs-wasm", "dist", file));
    expect({ file, same: installed.equals(readFileSync(join(ROOT, "dist", file))) }).toEqual({ file, same: true });
  }
  expect(decodesInstalledPackage(consumer)).toBe(`${0xabc},${0x123}`);
});

test("a folder install of a built clone copied elsewhere uses its dist/, saying so, and decodes", () => {
  const copy = copiedBuiltClone();
  const consumer = project("copied-folder-consumer");
  // npm shows a prepare script's output where it fails, or where asked.
  const run = spawnSync("npm", ["install", "--foreground-scripts", "--no-audit", "--no-fund", copy], { cwd: consumer, encoding: "utf8" });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
  expect(run.stderr).toContain("zarr-codecs-wasm: dist/ is the build of these sources (dist/.stamp matches them): not building it again (prepare)");
  expect(decodesInstalledPackage(consumer)).toBe(`${0xabc},${0x123}`);
});

test("where a copied clone must build, its build/wasm from the original's place is removed, saying so, and CMake configures a clean one", () => {
  const copy = copiedBuiltClone();
  const env = { ...process.env, NODE_PATH: "/usr/share/nodejs" };
  const configure = () => spawnSync("emcmake", ["cmake", "-S", ".", "-B", "build/wasm", "-DCMAKE_BUILD_TYPE=Release"], { cwd: copy, encoding: "utf8", env });
  const clean = () => spawnSync("bash", ["scripts/clean-moved-build.sh", "build/wasm"], { cwd: copy, encoding: "utf8" });
  // What the copied folder gets from CMake as it is: the error of item 13.
  const refused = configure();
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toContain(`is different than the directory ${ROOT}build/wasm where CMakeCache.txt was created`);
  // scripts/build-wasm.sh runs this before it configures.
  const build = readFileSync(join(copy, "scripts/build-wasm.sh"), "utf8");
  expect(build.indexOf("bash scripts/clean-moved-build.sh build/wasm")).toBeGreaterThan(-1);
  expect(build.indexOf("bash scripts/clean-moved-build.sh build/wasm")).toBeLessThan(build.indexOf("emcmake cmake"));
  const cleaned = clean();
  expect(cleaned).toMatchObject({
    status: 0,
    stderr: `zarr-codecs-wasm: build/wasm was configured in ${ROOT}build/wasm, not here (a copied or moved clone): building in a clean build/wasm\n`,
  });
  expect(existsSync(join(copy, "build", "wasm"))).toBe(false);
  expect(configure()).toMatchObject({ status: 0 });
  // A folder configured where it is stays, with nothing said.
  expect(clean()).toMatchObject({ status: 0, stderr: "" });
  expect(existsSync(join(copy, "build", "wasm", "CMakeCache.txt"))).toBe(true);
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
  expect(decodesInstalledPackage(consumer)).toBe(`${0xabc},${0x123}`);
});
