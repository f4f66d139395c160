// ready({ wasm }): the .wasm from a URL, a Response, bytes or a compiled
// module; bad sources are the package's error, and a later ready() still
// succeeds. (This file's module state is its own: Jest loads the package
// afresh for each test file.)
import { expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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
  ["a module of another release", () => OTHER_RELEASE, new RegExp(String.raw`^zarr-codecs-wasm: the \.wasm was built for another release of zarr-codecs-wasm \(interface unknown, this package needs ${ABI_VERSION}\); use the zarr-codecs-wasm/wasm file of the installed package$`)],
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
