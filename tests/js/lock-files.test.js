// Reproducible installs: in a fresh copy of the sources (this working
// tree's tracked files, so uncommitted changes are tested too), `npm ci`
// accepts package-lock.json and each test app's lock (it refuses a lock
// that lacks other platforms' optional packages, or disagrees with
// package.json), and `npm install` afterwards leaves every lock as it is.
// Scripts are skipped: the locks are what is tested, not the wasm build.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "./support/browser.js";

jest.setTimeout(900000);

const FLAGS = ["--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
// The folders with a lock: the package, and each app the browser tests build.
const PROJECTS = [".", "tests/apps/viv", "tests/apps/fizarrita"];
// Apps whose packages only need to be where npm puts them (the OME-Zarr
// libraries' installs, about 210 packages each): their locks are checked
// without unpacking, by `npm ci --dry-run` (which refuses a lock that
// disagrees with package.json, as `npm ci` does) and `npm install
// --package-lock-only` (which rewrites a lock npm would not have written);
// scripts/setup.sh's `npm ci` installs them for real on every fresh clone.
const RESOLVED_ONLY = ["tests/apps/ome-zarr-libraries", "tests/apps/ome-zarr-libraries-overrides", "tests/apps/ome-zarr-libraries-zarrita-0.6"];

let scratch;
let clone;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-locks-"));
  clone = join(scratch, "zarr-codecs-wasm");
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(ROOT, file), join(clone, file));
  }
  const git = (...args) => execFileSync("git", args, { cwd: clone, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-qm", "the sources");
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function npm(project, command, ...options) {
  const run = spawnSync("npm", [command, ...options, ...FLAGS], { cwd: join(clone, project), encoding: "utf8" });
  return { status: run.status, stderr: run.stderr.split("\n").filter((l) => l && !/Unknown user config/.test(l)).join("\n") };
}

// The project's lock as the clone has it: npm left it unchanged.
function expectLockUnchanged(project) {
  const lock = join(project, "package-lock.json");
  const diff = spawnSync("git", ["diff", "--exit-code", "--", lock], { cwd: clone, encoding: "utf8" });
  expect({ lock, status: diff.status, diff: diff.stdout }).toEqual({ lock, status: 0, diff: "" });
}

test.each(PROJECTS)("%s: npm ci accepts the lock, and npm install leaves it unchanged", (project) => {
  expect(npm(project, "ci")).toEqual({ status: 0, stderr: "" });
  expect(npm(project, "install")).toEqual({ status: 0, stderr: "" });
  expectLockUnchanged(project);
});

test.each(RESOLVED_ONLY)("%s: npm ci accepts the lock (dry run), and npm leaves it unchanged", (project) => {
  expect(npm(project, "ci", "--dry-run")).toEqual({ status: 0, stderr: "" });
  expect(npm(project, "install", "--package-lock-only")).toEqual({ status: 0, stderr: "" });
  expectLockUnchanged(project);
});

test("every app with a lock is checked", () => {
  const apps = execFileSync("git", ["ls-files", "tests/apps/*/package-lock.json"], { cwd: clone, encoding: "utf8" }).split("\n").filter(Boolean).map(dirname);
  expect(apps.sort()).toEqual([...PROJECTS, ...RESOLVED_ONLY].filter((p) => p !== ".").sort());
});

test("the lock holds other platforms' optional packages (what npm ci checks everywhere)", () => {
  const lock = JSON.parse(execFileSync("git", ["show", "HEAD:package-lock.json"], { cwd: clone, encoding: "utf8" }));
  const bindings = Object.keys(lock.packages).filter((p) => p.startsWith("node_modules/@unrs/resolver-binding-"));
  expect(bindings).toEqual(expect.arrayContaining([
    "node_modules/@unrs/resolver-binding-darwin-arm64",
    "node_modules/@unrs/resolver-binding-win32-x64-msvc",
    "node_modules/@unrs/resolver-binding-linux-x64-gnu",
  ]));
});
