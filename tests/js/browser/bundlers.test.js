// Vite and webpack 5 (from npm) build a page with a module Web Worker
// around the packed package, in the zero-configuration (default: the main
// entry, no bundler configuration) and the asset (slim + .wasm file)
// variants; Chromium runs each, and every decoded value is checked against
// references computed here. The outputs must not hold the build machine's
// paths. Both emit the .wasm and their pages fetch it, never the inlined
// copy; the asset builds hold no inlined copy at all. The size each build
// ships is printed.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
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
  for (const [bundler, variant] of BUILDS) {
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
    // "AGFzbQ" is the base64 of the wasm magic "\0asm": the inlined copy.
    const inlined = files.filter((f) => readFileSync(join(out, f.name), "latin1").includes("AGFzbQ"));
    // The main entry's `new URL(..., import.meta.url)` needs no
    // configuration: the bundler emits the file.
    expect(wasmFiles).toHaveLength(1);
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
      expect(requests.filter((p) => p.endsWith(".wasm"))).toHaveLength(1);
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
