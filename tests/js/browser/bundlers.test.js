// Vite and webpack 5 (from npm) build a page with a module Web Worker
// around the packed package, in the zero-configuration (default: the main
// entry, no bundler configuration) and the asset (slim + .wasm file)
// variants; Chromium runs each, and every decoded value is checked against
// references computed here. The outputs must not hold the build machine's
// paths. Both emit the read module's .wasm and their pages fetch it, never
// the inlined copy nor the encoder's .wasm; the asset builds hold no inlined copy at all. The size each build
// ships is printed. And a page that reads through a read pool (the
// bundler must find the pool's worker), served with and without
// cross-origin isolation: workers write into a shared output, or transfer
// their regions back.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { serve } from "../../../scripts/serve.mjs";
import { launchChromium, openPage, ROOT } from "../support/browser.js";
import { installPackedPackage } from "../support/consumer.js";
import { hex, packBitsDecodeReference, randomBytes, swapGroups } from "../support/reference.js";

jest.setTimeout(300000);

const APP = join(ROOT, "tests/apps/bundlers");
const BUILDS = [
  ["vite", "default"],
  ["vite", "asset"],
  ["webpack", "default"],
  ["webpack", "asset"],
];
const POOL_BUILDS = [["vite"], ["webpack"]];
// zarrita and what it imports, for the pool page (the repository's copies).
const ZARRITA = ["zarrita", "@zarrita/storage", "numcodecs", "fflate", "reference-spec-reader", "unzipit"];

// The two modules a bundler may emit, known by their bytes.
const sameBytes = (path, distFile) => readFileSync(path).equals(readFileSync(join(ROOT, "dist", distFile)));
const isReadModule = (path) => sameBytes(path, "zarr-codecs-wasm.wasm");
const isEncoderModule = (path) => sameBytes(path, "zarr-codecs-wasm-encode.wasm");

// Chunks of the kinds viewers read, with their expected decoded bytes from
// the spec-literal references.
function cases() {
  const packbits = (dataType, configuration, n, layout, seed) => {
    const encoded = randomBytes(Math.ceil((n * layout.bits) / 8), seed);
    return {
      input: { codec: "packbits", configuration, dataType, shape: [n], encoded: Array.from(encoded) },
      expected: hex(packBitsDecodeReference({ firstBit: 0, ...layout }, encoded, n)),
    };
  };
  const bigEndian = randomBytes(8 * 300, 7);
  bigEndian.set([0x7f, 0xf0, 0, 0, 0, 0, 0, 1, 0x80, 0, 0, 0, 0, 0, 0, 0]); // a NaN payload, -0
  return [
    packbits("uint16", { last_bit: 11 }, 1000, { containerBytes: 2, bits: 12, signed: false }, 1),
    packbits("bool", {}, 777, { containerBytes: 1, bits: 1, signed: false }, 2),
    packbits("int4", {}, 1001, { containerBytes: 1, bits: 4, signed: true }, 3),
    packbits("float8_e4m3", {}, 640, { containerBytes: 1, bits: 8, signed: false }, 4),
    {
      input: { codec: "bytes", configuration: { endian: "big" }, dataType: "float64", shape: [300], encoded: Array.from(bigEndian) },
      expected: hex(swapGroups(bigEndian, 8)),
    },
  ];
}

let project;
let browser;
const built = new Map();

beforeAll(async () => {
  ({ project } = installPackedPackage("bundlers"));
  cpSync(join(APP, "src"), join(project, "src"), { recursive: true });
  for (const dep of ZARRITA) {
    mkdirSync(join(project, "node_modules", dep, ".."), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", dep), join(project, "node_modules", dep));
  }
  for (const [bundler, variant] of [...BUILDS, ...POOL_BUILDS.map(([b]) => [b, "pool"])]) {
    const out = join(project, `out-${bundler}-${variant}`);
    const report = execFileSync("node", [join(APP, "build.mjs"), bundler, variant, project, out], { encoding: "utf8" });
    built.set(`${bundler} ${variant}`, { out, ...JSON.parse(report.trim().split("\n").at(-1)) });
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (built.size) {
    const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
    const lines = ["size each build ships (JS + .wasm, app code under 2 KiB), raw / gzip -9:"];
    for (const [name, { files }] of built) {
      const shipped = files.filter((f) => /\.(js|wasm)$/.test(f.name));
      const sum = (key) => shipped.reduce((n, f) => n + f[key], 0);
      lines.push(`  ${name.padEnd(15)} ${kb(sum("bytes")).padStart(10)} / ${kb(sum("gzip")).padStart(9)}   (${shipped.map((f) => `${f.name.replace(/^assets\//, "")} ${kb(f.bytes)}`).join(", ")})`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each(BUILDS)("%s, %s build", (bundler, variant) => {
  const name = `${bundler} ${variant}`;

  test("no path of the build machine, and the wasm emitted once, in the forms the variant asks", () => {
    const { out, files } = built.get(name);
    for (const { name: file } of files) {
      const text = readFileSync(join(out, file)).toString("latin1");
      expect({ file, root: text.includes(ROOT.replace(/\/$/, "")) }).toEqual({ file, root: false });
      expect({ file, project: text.includes(project) }).toEqual({ file, project: false });
      expect({ file, fileUrl: /file:\/\/\//.test(text) }).toEqual({ file, fileUrl: false });
    }
    const wasmFiles = files.filter((f) => f.name.endsWith(".wasm"));
    // Bundlers may emit the encoder module's .wasm too (its glue's
    // `new URL` is seen even where nothing encodes); a page fetches it
    // only when it encodes, which the page test below checks. Each file is
    // told apart by its bytes, since webpack names files by hash alone.
    const readWasm = wasmFiles.filter((f) => isReadModule(join(out, f.name)));
    const encoderWasm = wasmFiles.filter((f) => isEncoderModule(join(out, f.name)));
    expect(readWasm.length + encoderWasm.length).toBe(wasmFiles.length);
    expect(encoderWasm.length).toBeLessThanOrEqual(1);
    // "AGFzbQ" is the base64 of the wasm magic "\0asm": the inlined copy.
    const inlined = files.filter((f) => readFileSync(join(out, f.name), "latin1").includes("AGFzbQ"));
    // The main entry's `new URL(..., import.meta.url)` needs no
    // configuration: the bundler emits the file.
    expect(readWasm).toHaveLength(1);
    if (variant === "asset") {
      expect(inlined).toEqual([]);
    } else {
      // In a chunk of its own, for where the file is not used (the worker).
      expect(inlined.length).toBeGreaterThan(0);
    }
    expect(readdirSync(out)).toContain(built.get(name).html);
  });

  test("Chromium decodes every case in the page and in its module worker, value for value", async () => {
    const { out, html } = built.get(name);
    const { server, url } = await serve(out);
    try {
      const { page, problems } = await openPage(browser);
      const requests = [];
      page.on("request", (r) => requests.push(new URL(r.url()).pathname));
      await page.goto(`${url}/${html}`);
      await page.waitForFunction(() => window.loaded, null, { timeout: 30000 });
      const all = cases();
      const result = await page.evaluate((inputs) => window.run(inputs), all.map((c) => c.input));
      const expected = all.map((c) => c.expected);
      expect(result.page).toEqual(expected);
      expect(result.worker).toEqual(expected);
      expect(problems).toEqual([]);
      // The .wasm fetched once, by the page, which fetched no inlined copy
      // (its entries list its worker's script, which is the worker's).
      const holdsCopy = new Set(built.get(name).files.filter((f) => readFileSync(join(out, f.name), "latin1").includes("AGFzbQ")).map((f) => `/${f.name}`));
      const [workerScript] = result.fetched.worker;
      const fetchedWasm = requests.filter((p) => p.endsWith(".wasm"));
      expect(fetchedWasm).toHaveLength(1);
      // ...and it is the read module: a page that only reads never fetches
      // the encoder's.
      expect(isReadModule(join(out, fetchedWasm[0]))).toBe(true);
      expect(result.fetched.page.filter((p) => p.endsWith(".wasm"))).toHaveLength(1);
      expect(result.fetched.page.filter((p) => holdsCopy.has(p) && p !== workerScript)).toEqual([]);
      // The worker fetched no .wasm: in the asset build it got the page's
      // compiled module; in the default build it takes the inlined copy
      // (Vite's iife worker carries it in its own file, webpack's module
      // worker imports its chunk).
      expect(result.fetched.worker.filter((p) => p.endsWith(".wasm"))).toEqual([]);
      if (variant === "asset") expect(result.fetched.worker.filter((p) => holdsCopy.has(p))).toEqual([]);
      await page.close();
    } finally {
      server.close();
    }
  });
});

describe.each(POOL_BUILDS)("%s, a page reading through a read pool", (bundler) => {
  const name = `${bundler} pool`;
  const shape = [200, 300];
  const values = Array.from({ length: shape[0] * shape[1] }, (_, i) => ((i * 2654435761) >>> 20) & 0xfff);
  const hexOf = (list) => Buffer.from(new Uint16Array(list).buffer).toString("hex");
  const steps = [];
  for (let r = 1; r < shape[0]; r += 3) for (let c = 2; c < shape[1]; c += 2) steps.push(values[r * shape[1] + c]);
  const ISOLATION = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };

  test("the pool's worker is bundled as a worker of its own, without the inlined wasm, and no machine path", () => {
    const { out, files } = built.get(name);
    for (const { name: file } of files) {
      const text = readFileSync(join(out, file)).toString("latin1");
      expect({ file, root: text.includes(ROOT.replace(/\/$/, "")) }).toEqual({ file, root: false });
      expect({ file, fileUrl: /file:\/\/\//.test(text) }).toEqual({ file, fileUrl: false });
    }
  });

  test.each([
    ["cross-origin isolated (COOP/COEP): workers write into a shared output", true],
    ["not isolated: workers transfer their regions back", false],
  ])("%s", async (_, isolated) => {
    const { out, html } = built.get(name);
    const { server, url } = await serve(out, { headers: isolated ? ISOLATION : {} });
    try {
      const { page, problems } = await openPage(browser);
      const workers = [];
      page.on("worker", (w) => workers.push(new URL(w.url()).pathname));
      await page.goto(`${url}/${html}`);
      await page.waitForFunction(() => window.loaded, null, { timeout: 30000 });
      for (const codecs of [[{ name: "packbits", configuration: { last_bit: 11 } }], [{ name: "bytes", configuration: { endian: "big" } }]]) {
        const result = await page.evaluate((input) => window.run(input), { shape, chunks: [64, 128], values, codecs });
        expect(result.isolated).toBe(isolated);
        expect(result.plain).toBe(hexOf(values));
        expect(result.steps).toBe(hexOf(steps));
        // Every chunk of every read decoded by the workers, in jobs (a
        // chunk, or a band of a chunk row) that each took one path.
        const chunks = 4 * 3;
        const { stats } = result;
        expect(stats.shared + stats.transferred).toBe(stats.jobs);
        if (isolated) {
          expect(result.shared).toEqual({ hex: hexOf(values), isShared: true });
          expect(stats.chunks).toBe(3 * chunks);
          expect(stats.shared).toBeGreaterThan(0);
        } else {
          expect(result.shared).toBeUndefined();
          expect(stats.chunks).toBe(2 * chunks);
          expect(stats.shared).toBe(0);
        }
        expect(stats.transferred).toBeGreaterThan(0);
        expect(result.stats.started).toBeGreaterThanOrEqual(1);
        expect(result.stats.inThread).toBe(0);
      }
      // The workers the page started run the bundled worker file, which
      // carries no inlined copy of the wasm (the page posts its module).
      expect(workers.length).toBeGreaterThan(0);
      for (const path of new Set(workers)) {
        const text = readFileSync(join(out, path)).toString("latin1");
        expect({ path, inlined: text.includes("AGFzbQ") }).toEqual({ path, inlined: false });
      }
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      server.close();
    }
  });
});

test("Vite's dev server serves the pool's worker from the installed package, and the page reads through it", async () => {
  // The dev server in a process of its own (tests/apps/typescript-vite/dev-server.mjs).
  const vite = spawn("node", [join(ROOT, "tests/apps/typescript-vite/dev-server.mjs"), join(project, "src"), project, realpathSync(join(ROOT, "node_modules"))], { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  vite.stderr.on("data", (chunk) => (errors += chunk));
  try {
    const [line] = await Promise.race([
      once(createInterface({ input: vite.stdout }), "line"),
      once(vite, "exit").then(([code]) => Promise.reject(new Error(`Vite's dev server exited (${code}): ${errors}`))),
    ]);
    const { page, problems } = await openPage(browser);
    const workers = [];
    page.on("worker", (w) => workers.push(new URL(w.url()).pathname));
    await page.goto(`${JSON.parse(line).url}pool.html`);
    await page.waitForFunction(() => window.loaded, null, { timeout: 60000 });
    const shape = [50, 60];
    const values = Array.from({ length: 3000 }, (_, i) => (i * 7) & 0xfff);
    const result = await page.evaluate((input) => window.run(input), { shape, chunks: [16, 16], values, codecs: [{ name: "packbits", configuration: { last_bit: 11 } }] });
    expect(result.plain).toBe(Buffer.from(new Uint16Array(values).buffer).toString("hex"));
    expect(result.stats.chunks).toBe(2 * 16);
    expect(result.stats.transferred).toBe(result.stats.jobs);
    expect(workers.some((path) => path.endsWith("/zarr-codecs-wasm/js/pool/read-worker.js"))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  } finally {
    const exited = once(vite, "exit");
    vite.kill("SIGTERM");
    await exited;
  }
});
