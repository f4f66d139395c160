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
