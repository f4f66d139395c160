// A fresh project with the package installed as users get it: `npm pack`,
// then `npm install` of the tarball (offline: it has no dependencies).
// `npm pack` builds first (prepack: scripts/build-wasm.sh), and writes into
// dist/ while other suites read it: it runs once per Jest run
// (support/test-run.js), and every suite installs that one tarball.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./browser.js";
import { oncePerRun } from "./test-run.js";

/** { tarball, files }: the packed package's path and its file list. */
function packedPackage(fallbackFolder) {
  return oncePerRun("packed-package", (folder) => {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--pack-destination", folder], { cwd: ROOT, encoding: "utf8" }),
    );
    return { tarball: join(folder, packed.filename), files: packed.files.map((f) => f.path) };
  }, fallbackFolder);
}

/** Returns { project, files }: the project's folder, the tarball's file list. */
export function installPackedPackage(prefix) {
  const project = mkdtempSync(join(tmpdir(), `zarr-codecs-wasm-${prefix}-`));
  const { tarball, files } = packedPackage(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: prefix, private: true, type: "module" }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project });
  return { project, files };
}
