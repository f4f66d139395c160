// The README's `read`, read pool, `withDataTypes` and records + N5 examples as a new
// TypeScript user runs them: tests/apps/typescript-vite (index.html and
// main.ts, the examples copied in) in a fresh project that resolves
// zarr-codecs-wasm and zarrita 0.7.5 by name, type-checked by the
// repository's tsc (strict, skipLibCheck off, bundler resolution as Vite
// resolves), then served by Vite's dev server (createServer, no config
// file) and opened in Chromium. The examples read the sample store and the
// N5 fixture from scripts/serve.mjs on another port (another origin, as a
// user's own dev server reads `npm run viewer`'s), and must print what the
// README's `// =>` comments say. main.ts must hold each example's code as
// the README has it, so the two cannot drift apart.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { format } from "node:util";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarr from "zarrita";
import { register } from "../../../js/index.js";
import { writeSampleStore } from "../../../examples/sample-store.mjs";
import { serve } from "../../../scripts/serve.mjs";
import { launchChromium, openPage, ROOT } from "../support/browser.js";
import { runnableBlocks } from "../support/markdown-blocks.js";
import { consumerProject, errorLines, STRICT, typeCheck } from "../support/typescript-project.js";

jest.setTimeout(120000);

const APP = join(ROOT, "tests/apps/typescript-vite");
const URLS = {
  "https://example.com/data.zarr": "${base}/data.zarr",
  "https://example.com/container.n5": "${base}/container.n5",
};
const CLAIM = /\bconsole\.log\((.*)\);\s*\/\/ => (.+?)(?: \/\/ .*)?$/;

// The four README examples the app copies: read, a read pool, withDataTypes, records + N5.
const EXAMPLES = runnableBlocks(ROOT)
  .filter((b) => b.file === "README.md")
  .filter((b) => /await read\(image|storedDataType\(activations\)|structFields\(await zarr\.get\(detections\)/.test(b.code));

/** A block's lines as main.ts holds them: without its imports, each URL a template literal on the page's store. */
function asInApp(code) {
  return code
    .split("\n")
    .filter((line) => line.trim() !== "" && !/^import /.test(line))
    .map((line) => {
      let out = line;
      for (const [url, template] of Object.entries(URLS)) out = out.split(`"${url}"`).join(`\`${template}\``);
      return out;
    });
}

/** What the page printed, rebuilt (TypedArrays by name) and formatted as console.log formats it. */
function formatted(args) {
  const rebuild = (v) => {
    if (v && typeof v === "object" && "typedArray" in v) {
      const Type = globalThis[v.typedArray];
      return new Type(v.values.map(/Big/.test(v.typedArray) ? BigInt : Number));
    }
    return Array.isArray(v) ? v.map(rebuild) : v;
  };
  return format(...args.map(rebuild));
}

let scratch;
let stores;
let vite; // the dev server's process
let appUrl;
let browser;
let typeChecked;

beforeAll(async () => {
  register(zarr.registry);
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-ts-vite-"));
  // The stores, on their own server with CORS headers.
  const served = join(scratch, "stores");
  mkdirSync(served);
  await writeSampleStore(new FileSystemStore(join(served, "data.zarr")));
  symlinkSync(join(ROOT, "tests/fixtures/n5-store.n5"), join(served, "container.n5"));
  stores = await serve(served);

  // The app, as a new user has it: the package and zarrita in node_modules.
  const project = consumerProject(join(scratch, "app"), "zarrita");
  cpSync(APP, project, { recursive: true });
  const compilerOptions = { ...STRICT, target: "es2022", lib: ["es2022", "dom"], types: [], module: "esnext", moduleResolution: "bundler" };
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }, null, 2));
  typeChecked = await typeCheck(project, "tsconfig.json");

  // Vite's dev server, in a process of its own (see dev-server.mjs).
  vite = spawn("node", [join(APP, "dev-server.mjs"), project, ROOT], { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  vite.stderr.on("data", (chunk) => (errors += chunk));
  const [line] = await Promise.race([
    once(createInterface({ input: vite.stdout }), "line"),
    once(vite, "exit").then(([code]) => Promise.reject(new Error(`Vite's dev server exited (${code}): ${errors}`))),
  ]);
  appUrl = JSON.parse(line).url;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (vite && vite.exitCode === null) {
    const exited = once(vite, "exit");
    vite.kill("SIGTERM");
    await exited;
  }
  stores?.server.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("main.ts holds the README's four examples as the README has them", () => {
  expect(EXAMPLES).toHaveLength(4);
  const app = readFileSync(join(APP, "main.ts"), "utf8").split("\n").map((line) => line.trim());
  for (const example of EXAMPLES) {
    const missing = asInApp(example.code).filter((line) => !app.includes(line.trim()));
    expect({ example: `README.md:${example.line}`, missing }).toEqual({ example: `README.md:${example.line}`, missing: [] });
  }
});

test("the app type-checks: strict, skipLibCheck off, against zarrita 0.7.5", () => {
  expect(errorLines(typeChecked.output)).toEqual([]);
  expect(typeChecked.status).toBe(0);
});

test("Vite's dev server serves it, and in Chromium it reads the store from another origin and prints what the README says", async () => {
  expect(new URL(appUrl).origin).not.toBe(new URL(stores.url).origin);
  const { page, problems } = await openPage(browser);
  const missing = [];
  page.on("response", (r) => r.status() === 404 && missing.push(r.url()));
  await page.goto(`${appUrl}?store=${encodeURIComponent(stores.url)}`);
  await page.waitForFunction(() => window.loaded, null, { timeout: 60000 });
  const { printed, failure } = await page.evaluate(() => ({ printed: window.printed, failure: window.failure }));
  expect(failure).toBeUndefined();
  const claims = EXAMPLES.flatMap((b) => b.code.split("\n").map((line) => CLAIM.exec(line)?.[2]).filter(Boolean));
  expect(claims).toHaveLength(6);
  expect(printed.map(formatted)).toEqual(claims);
  // zarr.open without a version asks for v2's metadata first: those 404s
  // (which Chromium logs) are expected, and nothing else.
  expect(missing.filter((url) => !(url.startsWith(`${stores.url}/`) && /\/\.(zarray|zattrs)$/.test(url)))).toEqual([]);
  const notFound = /^console: Failed to load resource: the server responded with a status of 404/;
  expect(problems.filter((p) => !notFound.test(p))).toEqual([]);
  expect(problems).toHaveLength(missing.length);
  await page.close();
});
