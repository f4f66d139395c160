// Every code block of the README and docs/ runs as written, so no example
// can rot: JavaScript blocks run in Node as their own ES modules (from a
// folder inside the package, so `import "zarr-codecs-wasm"` resolves to
// this checkout as it would to an installed copy), JSON blocks parse, and
// `text` blocks are output. Any other block (shell, HTML, code that needs a
// bundler) must say in an HTML comment on the line before it why it is not
// run here and what runs it instead:
//   <!-- docs-test: not run: <reason> -->
// The placeholder URLs of the examples are replaced by the sample store
// (the demo's, written here) and the N5 fixture, served over HTTP; the
// placeholder paths by the same two folders on disk.
//
// What a block says it prints is checked: a line
//   console.log(...); // => <what it prints> // <prose, optional>
// must print exactly that, character for character, as console.log
// prints it (util.format of its arguments: "Int8Array(2) [ -1, -8 ]",
// strings unquoted at the top level, quoted inside objects), on one line.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { register } from "../../../js/index.js";
import { writeSampleStore } from "../../../examples/sample-store.mjs";
import { serve } from "../../../scripts/serve.mjs";
import { ROOT } from "../support/browser.js";
import { allBlocks, RUN } from "../support/markdown-blocks.js";

jest.setTimeout(120000);

const PLACEHOLDERS = {
  "https://example.com/data.zarr": "data.zarr",
  "https://example.com/container.n5": "container.n5",
};
const LOCAL_PLACEHOLDERS = {
  "/path/to/data.zarr": "data.zarr",
  "/path/to/container.n5": "container.n5",
};
const blocks = allBlocks(ROOT);
const runnable = blocks.filter((b) => RUN.has(b.lang) && !b.skip);

// ---- the served stores ---------------------------------------------------------

let server;
let base;
let scratch;
let runDir;

beforeAll(async () => {
  register(zarr.registry);
  // One folder served: the sample store written into it, the N5 fixture
  // linked beside it.
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-docs-"));
  await writeSampleStore(new FileSystemStore(join(scratch, "data.zarr")));
  symlinkSync(join(ROOT, "tests/fixtures/n5-store.n5"), join(scratch, "container.n5"));
  ({ server, url: base } = await serve(scratch));
  // Inside the package, so the bare name resolves to this checkout.
  runDir = join(ROOT, `.docs-run-${process.pid}`);
  mkdirSync(runDir);
});

afterAll(async () => {
  await new Promise((done) => (server ? server.close(done) : done()));
  if (runDir) rmSync(runDir, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const execFileAsync = promisify(execFile);

describe("every block is run, parsed, output, or says why not", () => {
  test("the files have blocks at all (the parser finds them)", () => {
    expect(runnable.length).toBeGreaterThan(10);
    expect(new Set(runnable.map((b) => b.file))).toContain("README.md");
  });

  test("every block not run here says why", () => {
    const silent = blocks.filter((b) => !RUN.has(b.lang) && b.lang !== "json" && b.lang !== "text" && !b.skip);
    expect(silent.map((b) => `${b.file}:${b.line} (${b.lang || "no language"})`)).toEqual([]);
  });

  test("every JSON block parses", () => {
    const bad = blocks.filter((b) => b.lang === "json" && !b.skip).filter((b) => {
      try {
        JSON.parse(b.code);
        return false;
      } catch {
        return true;
      }
    });
    expect(bad.map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });
});

// ---- what blocks say they print ------------------------------------------------

const CLAIM = /^(\s*.*)\bconsole\.log\((.*)\);\s*\/\/ => (.+?)(?: \/\/ .*)?$/;

/** The block with its claimed lines reporting what they print, and the claims. */
function instrument(code) {
  const claims = [];
  const lines = code.split("\n").map((line) => {
    const m = CLAIM.exec(line);
    if (!m) return line;
    claims.push(m[3]);
    return `${m[1]}__claimed(${claims.length - 1}, ${m[2]});`;
  });
  const prelude = [
    'import { format as __format } from "node:util";',
    "const __printed = [];",
    "globalThis.__claimed = (n, ...args) => {",
    "  // What console.log writes for these arguments (it formats with util.format's rules).",
    "  const text = __format(...args);",
    "  __printed.push([n, text]);",
    "  console.log(...args);",
    "};",
    'process.on("exit", () => process.stderr.write(`\\n__printed ${JSON.stringify(__printed)}\\n`));',
  ];
  return { code: [...prelude, ...lines].join("\n"), claims };
}

const claimCount = runnable.reduce((n, b) => n + instrument(b.code).claims.length, 0);

describe("every JavaScript block runs as written, and prints what it says", () => {
  test("the blocks make claims at all (the instrumenting finds them)", () => {
    expect(claimCount).toBeGreaterThan(20);
  });

  test.each(runnable.map((b, i) => [`${b.file}:${b.line}`, b, i]))("%s", async (_, b, i) => {
    let source = b.code;
    for (const [placeholder, path] of Object.entries(PLACEHOLDERS)) source = source.split(placeholder).join(`${base}/${path}`);
    for (const [placeholder, path] of Object.entries(LOCAL_PLACEHOLDERS)) source = source.split(placeholder).join(join(scratch, path));
    const { code, claims } = instrument(source);
    const file = join(runDir, `block-${i}.mjs`);
    writeFileSync(file, code);
    let result;
    try {
      result = await execFileAsync("node", [file], { cwd: runDir, timeout: 60000, encoding: "utf8" });
    } catch (e) {
      throw new Error(`${b.file}:${b.line} failed:\n${e.stderr || e.message}\n--- the block as run:\n${code}`);
    } finally {
      rmSync(file, { force: true });
    }
    // A block that prints prints something; none leaves files behind.
    if (/console\.log|__claimed/.test(code)) expect(result.stdout.trim()).not.toBe("");
    expect(readdirSync(runDir)).toEqual([]);
    const printed = JSON.parse(/__printed (.*)\n/.exec(result.stderr)?.[1] ?? "[]");
    // Each claimed line ran once and printed what its comment says.
    expect(printed.map(([n]) => n)).toEqual(claims.map((_, n) => n));
    // All of a block's claims at once, so one run shows every difference.
    expect({ block: `${b.file}:${b.line}`, printed: printed.map(([, text]) => text) }).toEqual({ block: `${b.file}:${b.line}`, printed: claims });
  });
});
