// Chromium: the module under a strict Content-Security-Policy, and several
// Web Workers decoding at once.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { launchChromium, openPage, ROOT, serveRepository } from "../support/browser.js";

jest.setTimeout(120000);

let browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

async function loadUnder(csp, query = "") {
  const { server, url } = await serveRepository({ "content-security-policy": csp });
  try {
    const { page } = await openPage(browser);
    await page.goto(`${url}/tests/browser/csp.html${query}`);
    await page.waitForFunction(() => window.result, null, { timeout: 30000 });
    const result = await page.evaluate(() => window.result);
    await page.close();
    return result;
  } finally {
    server.close();
  }
}

test("the built module contains no eval or new Function", () => {
  const text = readFileSync(`${ROOT}/dist/zarr-codecs-wasm.mjs`, "utf8");
  expect(text).not.toMatch(/new Function\s*\(/);
  expect(text).not.toMatch(/[^\w.]eval\s*\(/);
});

const STRICT = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
const GLUE_AND_FILE = ["/dist/zarr-codecs-wasm.mjs", "/dist/zarr-codecs-wasm.wasm"];

test("the main entry loads and decodes under script-src 'self' 'wasm-unsafe-eval' (no 'unsafe-eval'), from its .wasm file", async () => {
  const result = await loadUnder(STRICT);
  // The glue and the file beside the package's JavaScript, never the inlined copy.
  expect(result).toEqual({ values: [0xabc, 0x123], violations: [], fetched: GLUE_AND_FILE });
});

test("the slim entry and the separate .wasm file load under the same policy", async () => {
  const result = await loadUnder(STRICT, "?asset");
  expect(result).toEqual({ values: [0xabc, 0x123], violations: [], fetched: GLUE_AND_FILE });
});

test("the main entry in a module Web Worker takes the inlined copy under the same policy", async () => {
  const result = await loadUnder(STRICT, "?worker");
  expect(result.error).toBeUndefined();
  expect(result.values).toEqual([0xabc, 0x123]);
  expect(result.violations).toEqual([]);
  // No request for the .wasm file: the worker found the copy it imports.
  expect(result.workerFetched).toEqual(["/dist/zarr-codecs-wasm.inline.mjs", "/dist/zarr-codecs-wasm.mjs"]);
});

test.each([["the main entry's .wasm file", ""], ["the separate .wasm given to slim", "?asset"], ["the inlined copy, in a worker", "?worker"]])("control: without 'wasm-unsafe-eval' the browser refuses to compile %s, and ready() says so", async (_kind, query) => {
  const result = await loadUnder("default-src 'self'; script-src 'self'", query);
  expect(result.values).toBeUndefined();
  expect(result.error).toMatch(/^WASM_LOAD_FAILED: zarr-codecs-wasm: the WebAssembly module could not be compiled \(.*\); a Content-Security-Policy must allow script-src 'wasm-unsafe-eval'$/);
  if (query !== "?worker") expect(result.violations.join(" ")).toMatch(/script-src/);
  // A refusal is not a missing file: the main entry does not try the
  // inlined copy, which the policy would refuse alike.
  if (query === "") expect(result.fetched).not.toContain("/dist/zarr-codecs-wasm.inline.mjs");
});

test("the instance replaced by a fresh one in Chromium, under the same policy: a codec made before decodes right after", async () => {
  const { server, url } = await serveRepository({ "content-security-policy": STRICT });
  try {
    const { page, problems } = await openPage(browser);
    await page.goto(`${url}/tests/browser/recycle.html`);
    await page.waitForFunction(() => window.result, null, { timeout: 30000 });
    const result = await page.evaluate(() => window.result);
    expect(result).toEqual({ before: [0xabc, 0x123], replaced: true, after: [0xabc, 0x123], recycles: 1, implementation: "portable", live: 1, memory: 16 * 2 ** 20 });
    // (The policy refuses the page's data: icon, as for csp.html: not ours.)
    expect(problems.filter((p) => !p.includes("Loading the image 'data:,'"))).toEqual([]);
  } finally {
    server.close();
  }
});

test("four Web Workers decoding at once, five rounds: every result right", async () => {
  const { server, url } = await serveRepository();
  try {
    const { page, problems } = await openPage(browser);
    await page.goto(`${url}/tests/browser/workers.html`);
    await page.waitForFunction(() => window.result, null, { timeout: 60000 });
    const results = await page.evaluate(() => window.result);
    expect(results).toHaveLength(20);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(new Set(results.map((r) => r.worker)).size).toBe(4);
    expect(problems).toEqual([]);
  } finally {
    server.close();
  }
});
