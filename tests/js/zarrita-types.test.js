// The declarations against zarrita's real types: tests/js/typescript/
// zarrita/consumer-zarrita.ts passes what zarrita returns (its Array, its
// Chunk, its registry, its stores) to the package, checked by the
// repository's tsc, strict, skipLibCheck off, once for each zarrita the
// package supports (a folder per version whose node_modules link `zarrita`
// to that version's npm alias; one tsc run covers them all, each file
// resolving from its own folder).
//
// Under bundler resolution (Vite, webpack, esbuild) nothing may fail. Under
// node16 resolution (Node, TypeScript's "nodenext"), the declarations of
// zarrita's own dependencies fail (numcodecs' and unzipit's relative
// imports have no extension): those errors, and only those, are allowed,
// as a consumer with skipLibCheck off sees them whatever our declarations
// say; every error in our declarations, zarrita's or the consumer fails.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consumerProject, errorLines, inPairs, ROOT, STRICT, typeCheck, ZARRITA_PACKAGES } from "./support/typescript-project.js";

jest.setTimeout(120000);

const CONSUMER = join(ROOT, "tests", "js", "typescript", "zarrita", "consumer-zarrita.ts");
const RESOLUTIONS = {
  bundler: { module: "esnext", moduleResolution: "bundler" },
  node16: { module: "node16", moduleResolution: "node16" },
};
// Files whose errors are zarrita's dependencies', not ours or zarrita's.
const ZARRITA_DEPENDENCIES = /(^|\/)node_modules\/(numcodecs|unzipit)\//;

let project;
const outputs = new Map(); // resolution -> tsc's output

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-zarrita-types-"));
  consumerProject(project); // where tsc runs, and finds @types/node
  const files = ZARRITA_PACKAGES.map(([version, alias]) => {
    const dir = consumerProject(join(project, `zarrita-${version}`), alias);
    cpSync(CONSUMER, join(dir, "consumer-zarrita.ts"));
    return `zarrita-${version}/consumer-zarrita.ts`;
  });
  const names = Object.keys(RESOLUTIONS);
  for (const name of names) {
    const compilerOptions = { ...STRICT, target: "es2022", lib: ["es2022", "dom"], types: ["node"], ...RESOLUTIONS[name] };
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files }, null, 2));
  }
  const results = await inPairs(names.map((name) => () => typeCheck(project, `tsconfig.${name}.json`)));
  names.forEach((name, i) => outputs.set(name, results[i].output));
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe.each(ZARRITA_PACKAGES.map(([version]) => version))("zarrita %s", (version) => {
  test("bundler resolution: the consumer type-checks with no error", () => {
    const mine = errorLines(outputs.get("bundler")).filter((line) => line.startsWith(`zarrita-${version}/`));
    expect(mine).toEqual([]);
  });

  test("node16 resolution: the consumer type-checks with no error", () => {
    const mine = errorLines(outputs.get("node16")).filter((line) => line.startsWith(`zarrita-${version}/`));
    expect(mine).toEqual([]);
  });
});

test("bundler resolution: no error anywhere (our declarations, zarrita's, its dependencies')", () => {
  expect(errorLines(outputs.get("bundler"))).toEqual([]);
});

test("node16 resolution: the only errors are in zarrita's dependencies' declarations", () => {
  const lines = errorLines(outputs.get("node16"));
  expect(lines.filter((line) => !ZARRITA_DEPENDENCIES.test(line.replace(/\(\d+,\d+\).*/, "")))).toEqual([]);
});
