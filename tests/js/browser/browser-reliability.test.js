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

test("loads and decodes under script-src 'self' 'wasm-unsafe-eval' (no 'unsafe-eval')", async () => {
  const result = await loadUnder("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");
  expect(result).toEqual({ values: [0xabc, 0x123], violations: [] });
});

test("the slim entry and the separate .wasm file load under the same policy", async () => {
  const result = await loadUnder("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'", "?asset");
  expect(result).toEqual({ values: [0xabc, 0x123], violations: [] });
});

test.each([["inlined", ""], ["separate", "?asset"]])("control: without 'wasm-unsafe-eval' the browser refuses to compile the %s wasm, and ready() says so", async (_kind, query) => {
  const result = await loadUnder("default-src 'self'; script-src 'self'", query);
  expect(result.values).toBeUndefined();
  expect(result.error).toMatch(/^WASM_LOAD_FAILED: zarr-codecs-wasm: the WebAssembly module could not be compiled \(.*\); a Content-Security-Policy must allow script-src 'wasm-unsafe-eval'$/);
  expect(result.violations.join(" ")).toMatch(/script-src/);
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
