// Every JavaScript example of the README and docs/ (the blocks
// code-blocks.test.js runs) also compiles as TypeScript, against zarrita's
// real types: a TypeScript user copies them, and a declaration of ours that
// does not fit what zarrita returns fails here. Each block is written as an
// .mts file into one project per supported zarrita (its node_modules link
// `zarrita` to that version's npm alias, and zarr-codecs-wasm to this
// repository) and checked by the repository's tsc with strict on and
// skipLibCheck off, under bundler resolution (as a Vite app or a bundler
// resolves; zarrita's own dependencies have declarations that node16
// resolution refuses, see zarrita-types.test.js). TypeScript blocks
// (```ts, marked "not run" for code-blocks.test.js) are checked the same
// way. Where a TypeScript user must narrow a type, the example shows it in
// code that is JavaScript too (zarrita's `arr.is(dtype)`, `instanceof
// ZarrCodecError`), so the block needs no cast.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allBlocks, RUN } from "../support/markdown-blocks.js";
import { consumerProject, errorLines, ROOT, STRICT, typeCheck, ZARRITA_PACKAGES } from "../support/typescript-project.js";

jest.setTimeout(120000);

const TYPESCRIPT = new Set(["ts", "typescript"]);
const blocks = allBlocks(ROOT).filter((b) => (RUN.has(b.lang) && !b.skip) || TYPESCRIPT.has(b.lang));
const fileOf = (i) => `block-${String(i).padStart(2, "0")}.mts`;

const COMPILER_OPTIONS = {
  ...STRICT,
  target: "es2022",
  lib: ["es2022", "dom"],
  types: ["node"],
  module: "esnext",
  moduleResolution: "bundler",
};

let project;
let output = ""; // tsc's, for every version

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-examples-ts-"));
  consumerProject(project); // where tsc runs, and finds @types/node
  // One tsc run for every version (the libs and @types/node are checked
  // once): each folder's blocks resolve `zarrita` from its own node_modules.
  const files = [];
  for (const [version, alias] of ZARRITA_PACKAGES) {
    const dir = consumerProject(join(project, `zarrita-${version}`), alias);
    blocks.forEach((b, i) => {
      writeFileSync(join(dir, fileOf(i)), `// ${b.file}:${b.line}\n${b.code}\n`);
      files.push(`zarrita-${version}/${fileOf(i)}`);
    });
  }
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files }, null, 2));
  ({ output } = await typeCheck(project, "tsconfig.json"));
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

test("the README and docs/ have blocks to check (the README's three records, read and data type examples among them)", () => {
  expect(blocks.length).toBeGreaterThan(15);
  const readme = blocks.filter((b) => b.file === "README.md").map((b) => b.code);
  expect(readme.some((code) => code.includes("structFields(await zarr.get(detections), detections)"))).toBe(true);
  expect(readme.some((code) => code.includes("await read(image,"))).toBe(true);
  expect(readme.some((code) => code.includes("withDataTypes(new zarr.FetchStore"))).toBe(true);
});

describe.each(ZARRITA_PACKAGES.map(([version]) => version))("zarrita %s", (version) => {
  test("no error outside the blocks (zarrita's declarations, ours)", () => {
    const elsewhere = errorLines(output).filter((line) => !/^zarrita-[\d.]+\/block-\d+\.mts\(/.test(line));
    expect(elsewhere).toEqual([]);
  });

  test.each(blocks.map((b, i) => [`${b.file}:${b.line}`, i]))("%s type-checks as TypeScript, strict", (_, i) => {
    const mine = errorLines(output).filter((line) => line.startsWith(`zarrita-${version}/${fileOf(i)}(`));
    expect(mine).toEqual([]);
  });
});
