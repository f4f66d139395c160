// A benchmark's page in Chromium: built by Vite from its folder (zarrita
// and the package, as an app bundles them), served by scripts/serve.mjs
// beside the values the store holds (expected.u16), and opened in Debian's
// /usr/bin/chromium headless through playwright-core (never a downloaded
// browser), once its script says it has loaded. For bench/network-browser.mjs
// and bench/session-browser.mjs.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "vite";
import { serve } from "../scripts/serve.mjs";
import { launchChromium } from "../tests/js/support/browser.js";

/**
 * @param {string} pageRoot  the page's source folder
 * @param {{dir: string, storeDir: string}} store  networkStore's folders (the build goes into dir/page)
 * @returns {Promise<{page: import("playwright-core").Page, problems: string[], close: () => Promise<void>}>}
 */
export async function openBenchPage(pageRoot, { dir, storeDir }) {
  const pageDir = join(dir, "page");
  mkdirSync(pageDir, { recursive: true });
  await build({ root: pageRoot, configFile: false, logLevel: "warn", build: { outDir: pageDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 } });
  copyFileSync(join(storeDir, "expected.u16"), join(pageDir, "expected.u16"));
  const pages = await serve(pageDir);
  let browser;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`${pages.url}/index.html`);
    await page.waitForFunction(() => window.loaded, null, { timeout: 30000 });
    return {
      page,
      problems,
      async close() {
        await browser.close();
        pages.server.close();
      },
    };
  } catch (error) {
    await browser?.close();
    pages.server.close();
    throw error;
  }
}
