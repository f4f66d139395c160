// ready({ wasm }): the .wasm from a URL, a Response, bytes or a compiled
// module; bad sources are the package's error, and a later ready() still
// succeeds. (This file's module state is its own: Jest loads the package
// afresh for each test file.)
import { afterAll, describe, expect, test } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compiledWasm, PackBitsCodec, ready, ZarrCodecError } from "../../../js/index.js";
import * as slim from "../../../js/slim.js";
import { ABI_VERSION } from "../../../js/wasm/abi-version.js";

const require = createRequire(import.meta.url);
// What a user's bundler or Node resolves "zarr-codecs-wasm/wasm" to.
const wasmPath = require.resolve("zarr-codecs-wasm/wasm");
const wasmBytes = readFileSync(wasmPath);

// A valid module that is not this package's (the glue finds none of the
// exports it expects):
// (module (func (export "zcw_abi_version") (result i32) i32.const 1))
const OTHER_RELEASE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 7, 19, 1, 15,
  122, 99, 119, 95, 97, 98, 105, 95, 118, 101, 114, 115, 105, 111, 110, 0, 0, 10, 6, 1, 4, 0, 65, 1, 11,
]);

async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected ready() to reject");
}

test("the package exports its .wasm file, and the slim entry needs it", async () => {
  expect(wasmPath.endsWith("/dist/zarr-codecs-wasm.wasm")).toBe(true);
  const error = await failure(slim.ready());
  expect(error).toBeInstanceOf(ZarrCodecError);
  expect(error.code).toBe("NOT_READY");
  expect(error.message).toBe(
    "zarr-codecs-wasm/slim has no inlined wasm: call ready({ wasm }) with the zarr-codecs-wasm/wasm file (a URL, Response, bytes or compiled module) first",
  );
});

test.each([
  ["a missing file", () => pathToFileURL(`${wasmPath}.missing`), /^zarr-codecs-wasm: could not read file:.*\.wasm\.missing \(ENOENT/],
  ["a 404 Response", () => new Response("not found", { status: 404, statusText: "Not Found" }), /^zarr-codecs-wasm: could not fetch the Response: HTTP 404 Not Found$/],
  ["bytes that are not wasm", () => new TextEncoder().encode("<!doctype html>"), /^zarr-codecs-wasm: the bytes given is not a WebAssembly module \(WebAssembly\.compile\(\): expected magic word/],
  ["a module of another release", () => OTHER_RELEASE, new RegExp(String.raw`^zarr-codecs-wasm: the \.wasm was built for another release of zarr-codecs-wasm \(interface unknown, this package needs ${ABI_VERSION}\); use the zarr-codecs-wasm\/wasm file of the installed package$`)],
  ["something else", () => 42, /^zarr-codecs-wasm: ready\(\{ wasm \}\) takes a URL or string, a Response, bytes or a WebAssembly\.Module, got 42$/],
])("%s: WASM_LOAD_FAILED, and nothing loaded", async (_what, source, message) => {
  const error = await failure(ready({ wasm: source() }));
  expect(error).toBeInstanceOf(ZarrCodecError);
  expect(error.code).toBe("WASM_LOAD_FAILED");
  expect(error.message).toMatch(message);
  expect(() => compiledWasm()).toThrow(/not loaded yet/);
});

test("then a good source loads, the first success wins, and later calls resolve to it", async () => {
  const module = await WebAssembly.compile(wasmBytes);
  await ready({ wasm: module });
  expect(compiledWasm()).toBe(module);
  await ready({ wasm: OTHER_RELEASE }); // ignored: already loaded
  await slim.ready(); // the same module state behind both entries
  expect(compiledWasm()).toBe(module);
  const c = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  expect([...c.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data]).toEqual([0xabc, 0x123]);
});

test("every other kind of source compiles too (each in a fresh process)", () => {
  // Loading is once per realm: each source gets its own Node process.
  const { execFileSync } = require("node:child_process");
  const script = (source) => `
    import { readFileSync } from "node:fs";
    import { ready, PackBitsCodec } from ${JSON.stringify(pathToFileURL(require.resolve("../../../js/slim.js")).href)};
    const path = ${JSON.stringify(wasmPath)};
    await ready({ wasm: ${source} });
    const c = PackBitsCodec.fromConfig({}, { dataType: "int4", shape: [2] });
    console.log([...c.decode(new Uint8Array([0x8f])).data].join(","));`;
  for (const source of [
    "new URL('file://' + path)",
    "'file://' + path",
    "readFileSync(path)",
    "readFileSync(path).buffer.slice(0)",
    "new Response(readFileSync(path), { headers: { 'content-type': 'application/wasm' } })",
    "new Response(readFileSync(path))", // no wasm MIME type: compiled without streaming
    "Promise.resolve(readFileSync(path))",
  ]) {
    const out = execFileSync("node", ["--input-type=module", "-e", script(source)], { encoding: "utf8" });
    expect(`${source}: ${out.trim()}`).toBe(`${source}: -1,-8`);
  }
});

// The main entry's ready() with nothing given, on a copy of the package
// (js/, dist/, package.json) whose dist/ each case changes, in a fresh Node
// process: it reads the .wasm file beside the JavaScript, and takes the
// inlined copy where the file is absent (silently) or broken (with a
// warning on stderr naming the file), never failing where the inlined
// copy works.
describe("the main entry's ready() with nothing given", () => {
  const root = join(wasmPath, "../..");
  const INLINE = "dist/zarr-codecs-wasm.inline.mjs";
  const FILE = "dist/zarr-codecs-wasm.wasm";
  const copies = [];
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  // Runs ready() and a decode in a copy of the package changed by
  // `change(dir)`, after `before` (code run first).
  function readyIn(change, before = "") {
    const dir = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-loading-"));
    copies.push(dir);
    for (const part of ["js", "dist", "package.json"]) cpSync(join(root, part), join(dir, part), { recursive: true });
    change(dir);
    const script = `${before}
      const { compiledWasm, ready, PackBitsCodec } = await import(${JSON.stringify(pathToFileURL(join(dir, "js/index.js")).href)});
      try {
        await ready();
        const c = PackBitsCodec.fromConfig({}, { dataType: "int4", shape: [2] });
        console.log(JSON.stringify({ values: [...c.decode(new Uint8Array([0x8f])).data], compiled: compiledWasm() instanceof WebAssembly.Module }));
      } catch (error) {
        console.log(JSON.stringify({ error: error.code + ": " + error.message }));
      }`;
    const run = spawnSync("node", ["--input-type=module", "-e", script], { encoding: "utf8" });
    return { ...JSON.parse(run.stdout.trim()), stderr: run.stderr.trim(), dir };
  }
  const loaded = { values: [-1, -8], compiled: true };

  test("the .wasm file is read and compiled: the inlined copy is never imported", () => {
    // Without the inlined copy, ready() can only have used the file.
    const result = readyIn((dir) => rmSync(join(dir, INLINE)));
    expect(result).toMatchObject({ ...loaded, stderr: "" });
  });

  test.each([
    ["no .wasm file", (dir) => rmSync(join(dir, FILE))],
    ["a .wasm file that is no wasm (an HTML page)", (dir) => writeFileSync(join(dir, FILE), "<!doctype html><title>Not found</title>")],
    ["an empty .wasm file", (dir) => writeFileSync(join(dir, FILE), "")],
  ])("%s: the inlined copy, silently", (_what, change) => {
    expect(readyIn(change)).toMatchObject({ ...loaded, stderr: "" });
  });

  test("Node without process.getBuiltinModule (before 20.16 and 22.3): the inlined copy, silently", () => {
    expect(readyIn(() => {}, "delete process.getBuiltinModule;")).toMatchObject({ ...loaded, stderr: "" });
  });

  test.each([
    ["a damaged .wasm (cut short)", (dir) => writeFileSync(join(dir, FILE), wasmBytes.subarray(0, wasmBytes.length >> 1)), /is not a WebAssembly module \(WebAssembly\.compile\(\): /],
    ["a .wasm of another release", (dir) => writeFileSync(join(dir, FILE), OTHER_RELEASE), /was built for another release of zarr-codecs-wasm \(interface unknown, this package needs \d+\)/],
  ])("%s: the inlined copy, with one warning naming the file", (_what, change, reason) => {
    const result = readyIn(change);
    expect(result).toMatchObject(loaded);
    const lines = result.stderr.split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^zarr-codecs-wasm: ${pathToFileURL(join(result.dir, FILE)).href.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} `));
    expect(lines[0]).toMatch(reason);
    expect(lines[0]).toMatch(/; zarr-codecs-wasm uses the copy inlined in the package instead$/);
  });

  test("neither (a copy installed without a build): ready() says how to build", () => {
    const result = readyIn((dir) => {
      rmSync(join(dir, FILE));
      rmSync(join(dir, INLINE));
    });
    expect(result.error).toMatch(/^WASM_LOAD_FAILED: zarr-codecs-wasm: dist\/zarr-codecs-wasm\.inline\.mjs is missing: this copy of the package was installed from its sources without building/);
    expect(result.stderr).toBe("");
  });
});
