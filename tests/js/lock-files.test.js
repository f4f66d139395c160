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

function npm(project, command) {
  const run = spawnSync("npm", [command, ...FLAGS], { cwd: join(clone, project), encoding: "utf8" });
  return { status: run.status, stderr: run.stderr.split("\n").filter((l) => l && !/Unknown user config/.test(l)).join("\n") };
}

test.each(PROJECTS)("%s: npm ci accepts the lock, and npm install leaves it unchanged", (project) => {
  expect(npm(project, "ci")).toEqual({ status: 0, stderr: "" });
  expect(npm(project, "install")).toEqual({ status: 0, stderr: "" });
  const lock = join(project, "package-lock.json");
  const diff = spawnSync("git", ["diff", "--exit-code", "--", lock], { cwd: clone, encoding: "utf8" });
  expect({ lock, status: diff.status, diff: diff.stdout }).toEqual({ lock, status: 0, diff: "" });
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
