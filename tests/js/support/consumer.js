// A fresh project with the package installed as users get it: `npm pack`,
// then `npm install` of the tarball (offline: it has no dependencies).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./browser.js";

/** Returns { project, files }: the project's folder, the tarball's file list. */
export function installPackedPackage(prefix) {
  const project = mkdtempSync(join(tmpdir(), `zarr-codecs-wasm-${prefix}-`));
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", project], { cwd: ROOT, encoding: "utf8" }),
  );
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: prefix, private: true, type: "module" }));
  execFileSync(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", join(project, packed.filename)],
    { cwd: project },
  );
  return { project, files: packed.files.map((f) => f.path) };
}
