// The package as users get it: `npm pack`, installed into a fresh project,
// then (a) imported from Node ESM, (b) type-checked by TypeScript in a
// consumer file, (c) bundled by esbuild into a page Chromium loads.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "../../scripts/serve.mjs";
import { launchChromium, openPage, ROOT } from "./support/browser.js";
import { installPackedPackage } from "./support/consumer.js";

jest.setTimeout(180000);

let project;
let files;

beforeAll(() => {
  ({ project, files } = installPackedPackage("consumer"));
  // zarrita is an optional peer: the consumer brings its own (ours, linked).
  for (const dep of ["zarrita", "@zarrita/storage", "numcodecs"]) {
    mkdirSync(join(project, "node_modules", dep, ".."), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", dep), join(project, "node_modules", dep));
  }
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

test("the tarball holds the modules (the read module's glue, .wasm and inlined copy, the encoder module), the compression libraries' licenses, every JS file of js/, the types, README, CHANGELOG and LICENSE, nothing else", () => {
  // The repository's own list of js/ files, so a file added there is
  // expected here, and anything else (tests, build leftovers) is not.
  const js = execFileSync("git", ["ls-files", "js"], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
  // One license file per entry of cmake/compressor-sources.pin, and the pin
  // itself as SOURCES.txt (where each library came from).
  const licenses = readFileSync(join(ROOT, "cmake/compressor-sources.pin"), "utf8")
    .split("\n")
    .filter((line) => /^[a-z]/.test(line) && !/^(patch|upstream) /.test(line))
    .flatMap((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[5].split(",").map((file) => `dist/licenses/${fields[0]}-${file.split("/").pop()}`);
    });
  expect(licenses).toEqual(expect.arrayContaining(["dist/licenses/zstd-LICENSE", "dist/licenses/lz4-LICENSE",
    "dist/licenses/libdeflate-COPYING", "dist/licenses/c-blosc-BLOSC.txt"]));
  expect(files.sort()).toEqual([
    "CHANGELOG.md", "LICENSE", "README.md",
    "dist/zarr-codecs-wasm.inline.mjs", "dist/zarr-codecs-wasm.mjs", "dist/zarr-codecs-wasm.wasm",
    "dist/zarr-codecs-wasm-encode.mjs", "dist/zarr-codecs-wasm-encode.wasm",
    "dist/licenses/SOURCES.txt", ...licenses,
    ...js, "package.json",
  ].sort());
});

// Issue 29's budget: what a page downloads to read, every decoder included,
// the .wasm and its glue as the tarball ships them, gzip -9 (as
// docs/where-it-runs.md reports them): 140,000 bytes, raised to 142,000
// by issue 33's checks of a frame's size claim before allocation (+1,661),
// and to 144,500 by issue 35's value programs (read's array -> array steps
// in wasm, their SIMD kernels: +2,345).
test("the read module a page downloads (.wasm and glue, gzip -9) stays within 144,500 bytes", () => {
  const dir = join(project, "node_modules", "zarr-codecs-wasm", "dist");
  // GNU gzip, as scripts/build-wasm.sh measures (zlib's level 9 makes the
  // .wasm about 1.6 KB larger).
  const gzipped = (name) => execFileSync("gzip", ["-9", "-c", join(dir, name)], { maxBuffer: 1 << 24 }).length;
  const total = gzipped("zarr-codecs-wasm.wasm") + gzipped("zarr-codecs-wasm.mjs");
  expect(total).toBeGreaterThan(100000); // the decoders are in it
  expect(total).toBeLessThanOrEqual(144500);
});

test("the exports map: the entries, the .wasm file and package.json resolve from a consumer", () => {
  const out = execFileSync("node", ["--input-type=module", "-e", `
    for (const s of ["zarr-codecs-wasm", "zarr-codecs-wasm/slim", "zarr-codecs-wasm/wasm", "zarr-codecs-wasm/fizarrita-worker", "zarr-codecs-wasm/package.json"])
      console.log(import.meta.resolve(s).replace(/^.*node_modules\\/zarr-codecs-wasm\\//, ""));
  `], { cwd: project, encoding: "utf8" });
  expect(out.trim().split("\n")).toEqual([
    "js/index.js", "js/slim.js", "dist/zarr-codecs-wasm.wasm", "js/integrations/fizarrita-worker.js", "package.json",
  ]);
});

test("CommonJS require() works where Node can require ES modules (20.19+, 22.12+)", () => {
  const [major, minor] = process.versions.node.split(".").map(Number);
  const canRequireEsm = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
  const run = () => execFileSync("node", ["-e", `
    const { ready, PackBitsCodec } = require("zarr-codecs-wasm");
    ready().then(() => console.log(Array.from(PackBitsCodec.fromConfig({}, { dataType: "int4", shape: [2] }).decode(new Uint8Array([0x8f])).data).join(",")));
  `], { cwd: project, encoding: "utf8", stdio: "pipe" }).trim();
  if (canRequireEsm) expect(run()).toBe("-1,-8");
  else expect(run).toThrow(/ERR_REQUIRE_ESM|require\(\) of ES Module/);
});

test("(a) Node imports the installed package as an ES module and decodes", () => {
  writeFileSync(join(project, "consumer.mjs"), `
    import * as zarr from "zarrita";
    import { ready, register, PackBitsCodec } from "zarr-codecs-wasm";
    await ready();
    const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
    const registry = register(new Map(zarr.registry));
    console.log(JSON.stringify({
      values: Array.from(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data),
      names: ["bytes", "endian", "packbits", "numcodecs.packbits"].filter((n) => registry.has(n)),
    }));
  `);
  const out = JSON.parse(execFileSync("node", ["consumer.mjs"], { cwd: project, encoding: "utf8" }));
  expect(out).toEqual({ values: [0xabc, 0x123], names: ["bytes", "endian", "packbits", "numcodecs.packbits"] });
});

test("(b) TypeScript type-checks a consumer of register, the codecs and the error class", () => {
  writeFileSync(join(project, "consumer.ts"), `
    import * as zarr from "zarrita";
    import {
      register, ready, BytesCodec, PackBitsCodec, NumcodecsPackBitsCodec,
      ZarrCodecError, float16ToFloat32, widenToFloat32, withDataTypes, storedDataType,
      compiledWasm, nativeCodecs, type ErrorCode,
    } from "zarr-codecs-wasm";
    import * as slim from "zarr-codecs-wasm/slim";

    const registry: typeof zarr.registry = register(zarr.registry);
    async function main(): Promise<number> {
      await ready();
      await slim.ready({ wasm: new URL("file:///x.wasm") });
      const module: WebAssembly.Module = compiledWasm();
      const store = withDataTypes(new Map<string, Uint8Array>() as unknown as zarr.Readable & { get: (key: string) => Promise<Uint8Array | undefined> }, { floats: "bits" });
      const arr = await zarr.open(store, { kind: "array" });
      const stored = storedDataType(arr);
      const float32: Float32Array = widenToFloat32("float8_e4m3", new Uint8Array([0x38]));
      const native = nativeCodecs().PackBitsCodec;
      const raw = new native("int4", {}, [2], "native");
      const outcome = raw.decode(new Uint8Array([0x8f]), new Int8Array(2));
      raw.delete();
      const legacy = PackBitsCodec.fromConfig({}, { data_type: "int4", shape: [2] });
      legacy.dispose();
      const packbits = PackBitsCodec.fromConfig({ last_bit: 11, padding_encoding: "first_byte" }, { dataType: "uint16", shape: [4] });
      const packed: Uint8Array = packbits.encode({ data: new Uint16Array(4) });
      const chunk = packbits.decode(packed);
      const size: number = packbits.computeEncodedSize(8);
      const into: Uint16Array = packbits.decodeInto(packed, new Uint16Array(4));
      const bytes = BytesCodec.fromConfig({ endian: "big" }, { dataType: "float64", shape: [1] });
      const filter = NumcodecsPackBitsCodec.fromConfig({}, { dataType: "bool", shape: [3] });
      const meta = filter.getEncodedMeta({ dataType: "bool", shape: [3] });
      const widened: Float32Array = float16ToFloat32(new Uint16Array([0x3c00]));
      try {
        bytes.decode(new Uint8Array(3));
      } catch (error) {
        if (error instanceof ZarrCodecError) {
          const code: ErrorCode = error.code;
          return code.length;
        }
      }
      return chunk.shape.length + size + into.length + meta.shape[0] + widened[0] + registry.size +
        float32[0] + outcome.message.length + String(stored).length + (module ? 1 : 0);
    }
    void main();
  `);
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], skipLibCheck: true },
    files: ["consumer.ts"],
  }));
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const typeCheck = (config) => {
    try {
      execFileSync("node", [tsc, "-p", config], { cwd: project, encoding: "utf8", stdio: "pipe" });
      return "";
    } catch (error) {
      return error.stdout;
    }
  };
  expect(typeCheck("tsconfig.json")).toBe("");
  // And a misuse is caught: a wrong option type must not compile.
  writeFileSync(join(project, "misuse.ts"), `
    import { PackBitsCodec } from "zarr-codecs-wasm";
    PackBitsCodec.fromConfig({ last_bit: "11" }, { dataType: "uint16", shape: [4] });
  `);
  writeFileSync(join(project, "tsconfig.misuse.json"), JSON.stringify({
    extends: "./tsconfig.json", files: ["misuse.ts"],
  }));
  expect(typeCheck("tsconfig.misuse.json")).toMatch(/misuse\.ts.*TS2322/);
});

test("(c) esbuild bundles a consumer page that runs in Chromium", async () => {
  writeFileSync(join(project, "page.js"), `
    import * as zarr from "zarrita";
    import { register, ready, PackBitsCodec } from "zarr-codecs-wasm";
    register(zarr.registry);
    await ready();
    const store = new Map();
    const arr = await zarr.create(zarr.root(store).resolve("m"), {
      shape: [20], chunkShape: [8], dtype: "bool", fillValue: false,
      codecs: [{ name: "packbits", configuration: {} }],
    });
    const mask = Array.from({ length: 20 }, (_, i) => i % 3 === 0);
    // From a buffer: zarrita 0.7.5's BoolArray(array) tests instanceof
    // SharedArrayBuffer, which pages without cross-origin isolation lack.
    const bools = new zarr.BoolArray(Uint8Array.from(mask, Number).buffer, 0, 20);
    await zarr.set(arr, null, { data: bools, shape: [20], stride: [1] });
    const { data } = await zarr.get(arr);
    const twelve = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] })
      .decode(new Uint8Array([0xbc, 0x3a, 0x12])).data;
    window.result = { mask: Array.from(data), expected: mask, twelve: Array.from(twelve), chunkBytes: store.get("/m/c/0").length };
  `);
  writeFileSync(join(project, "index.html"), `<!doctype html><link rel="icon" href="data:,"><script type="module" src="./bundle.js"></script>`);
  const esbuild = join(ROOT, "node_modules", "esbuild", "bin", "esbuild");
  execFileSync(esbuild, ["page.js", "--bundle", "--format=esm", "--platform=browser", "--outfile=bundle.js", "--log-level=warning"], { cwd: project });
  const { server, url } = await serve(project);
  const browser = await launchChromium();
  try {
    const { page, problems } = await openPage(browser);
    await page.goto(`${url}/index.html`);
    await page.waitForFunction(() => window.result, null, { timeout: 30000 }).catch(() => {});
    expect(problems).toEqual([]);
    const result = await page.evaluate(() => window.result);
    expect(result.mask).toEqual(result.expected);
    expect(result.twelve).toEqual([0xabc, 0x123]);
    expect(result.chunkBytes).toBe(1); // 8 bools in one byte
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
    server.close();
  }
});
