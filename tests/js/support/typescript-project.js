// Throwaway TypeScript consumer projects, checked by the repository's tsc:
// a folder whose node_modules resolve zarr-codecs-wasm by name (a link to
// this repository, so the exports map's "types" conditions are what
// TypeScript follows) and, where asked, `zarrita` as one of the installed
// versions (a link to its npm alias), with @zarrita/storage and
// @types/node beside it.
import { execFile } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
export const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** [version, the npm alias it is installed as] of every zarrita the package supports (package.json's devDependencies). */
export const ZARRITA_PACKAGES = [
  ["0.5.4", "zarrita-0.5"],
  ["0.6.1", "zarrita-0.6.1"],
  ["0.6.2", "zarrita-0.6"],
  ["0.7.5", "zarrita"],
];

/** What every check here has on: strict, and the declarations of every package checked (ours, zarrita's). */
export const STRICT = { strict: true, skipLibCheck: false, noEmit: true };

/**
 * Makes `dir` a consumer project: package.json (an ES module package) and
 * node_modules with zarr-codecs-wasm and @types/node, plus zarrita (the
 * installed alias `zarritaPackage`) and @zarrita/storage where given.
 * The links go with the folder; what they point to stays.
 */
export function consumerProject(dir, zarritaPackage) {
  mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "types-consumer", private: true, type: "module" }));
  symlinkSync(ROOT, join(dir, "node_modules", "zarr-codecs-wasm"), "dir");
  symlinkSync(join(ROOT, "node_modules", "@types", "node"), join(dir, "node_modules", "@types", "node"), "dir");
  if (zarritaPackage) {
    symlinkSync(join(ROOT, "node_modules", zarritaPackage), join(dir, "node_modules", "zarrita"), "dir");
    symlinkSync(join(ROOT, "node_modules", "@zarrita"), join(dir, "node_modules", "@zarrita"), "dir");
  }
  return dir;
}

/** Runs tsc -p on `config` in `cwd`; resolves to { status, output } (status 0: no errors). */
export function typeCheck(cwd, config) {
  return new Promise((resolve) => {
    execFile("node", [TSC, "-p", config], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ status: error ? (error.code ?? 1) : 0, output: (stdout + stderr).trim() });
    });
  });
}

/** tsc's error lines ("file(line,col): error TSnnnn: ..."), without their indented continuations. */
export function errorLines(output) {
  return output.split("\n").filter((line) => /error TS\d+/.test(line));
}

/** Runs the tasks two at a time (the machines this runs on have two cores). */
export async function inPairs(tasks) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}
