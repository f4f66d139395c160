// Headless Debian Chromium for the browser tests, driven by playwright-core
// (never a downloaded browser), and the repository served on 127.0.0.1.
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "../../../scripts/serve.mjs";

export const CHROMIUM = "/usr/bin/chromium";
export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL("../../artifacts", import.meta.url));

export async function launchChromium() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/setup.sh (apt-get install chromium)`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** The repository on an ephemeral 127.0.0.1 port; `headers` on every response. */
export function serveRepository(headers) {
  return serve(ROOT, { headers });
}

/** A page that collects its console errors and uncaught exceptions. */
export async function openPage(browser, viewport = { width: 1000, height: 760 }) {
  const page = await browser.newPage({ viewport });
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  return { page, problems };
}

/**
 * `folder` served on an ephemeral port, Chromium launched, and `pageName`
 * opened there until its script sets `window.loaded`. `listen(page, url)`
 * attaches listeners before the page loads. `close()` ends the browser and
 * the server; a failure on the way closes what was already open.
 */
export async function openLoadedPage(folder, pageName, listen = () => {}) {
  const { server, url } = await serve(folder);
  let browser;
  try {
    browser = await launchChromium();
    const { page, problems } = await openPage(browser);
    listen(page, url);
    await page.goto(`${url}/${pageName}`);
    await page.waitForFunction(() => window.loaded, null, { timeout: 30000 });
    return { page, problems, close: async () => { await browser.close(); server.close(); } };
  } catch (error) {
    await browser?.close();
    server.close();
    throw error;
  }
}
