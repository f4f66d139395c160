// The type declarations as strict TypeScript consumers see them: the
// consumers in tests/js/typescript, in a throwaway project that resolves
// zarr-codecs-wasm by name (a node_modules link to this repository, so the
// exports map's "types" conditions are what TypeScript follows), checked by
// the repository's tsc with strict on and skipLibCheck off under every lib
// the declarations promise to work with: es2020, es2022 and esnext, each
// with and without the DOM lib, without @types/node, under node16
// resolution, plus bundler resolution and @types/node once each. The
// consumers' @ts-expect-error lines are misuses the declarations must
// refuse; misuse.ts shows that a refused line fails the check; runtime.ts
// (support/runtime-shape.js) holds the declarations to what the package
// exports and what its objects have, no more and no less.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { NUMERIC_TYPE_NAMES } from "../../js/array-to-array/numeric-types.js";
import { runtimeShapeSource } from "./support/runtime-shape.js";
import { inPairs, typeCheck } from "./support/typescript-project.js";

jest.setTimeout(120000);

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONSUMERS = join(ROOT, "tests", "js", "typescript");

const BASE = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  types: [],
  module: "node16",
  moduleResolution: "node16",
};
// What the strictest consumers add: the declarations' optional members
// accept undefined where the code treats it as absent.
const STRICTEST = { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true };

const MATRIX = [
  { name: "es2020", lib: ["es2020"] },
  { name: "es2020 + dom", lib: ["es2020", "dom"] },
  { name: "es2022", lib: ["es2022"] },
  { name: "es2022 + dom", lib: ["es2022", "dom"] },
  { name: "esnext", lib: ["esnext"], options: STRICTEST },
  { name: "esnext + dom", lib: ["esnext", "dom"], options: STRICTEST },
  { name: "esnext + dom, bundler", lib: ["esnext", "dom"], options: { ...STRICTEST, module: "esnext", moduleResolution: "bundler" } },
  { name: "es2022 + @types/node", lib: ["es2022"], options: { types: ["node"] } },
];

function filesFor({ lib, options }) {
  const files = ["consumer.ts", "consumer-slim.ts", "runtime.ts"];
  if (lib.includes("dom")) files.push("consumer-dom.ts");
  if (lib.includes("esnext")) files.push("consumer-esnext.ts");
  if (options?.types?.includes("node")) files.push("consumer-node.ts");
  return files;
}

let project;
const results = new Map();

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-types-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "types-consumer", private: true, type: "module" }));
  mkdirSync(join(project, "node_modules", "@types"), { recursive: true });
  symlinkSync(ROOT, join(project, "node_modules", "zarr-codecs-wasm"), "dir");
  symlinkSync(join(ROOT, "node_modules", "@types", "node"), join(project, "node_modules", "@types", "node"), "dir");
  cpSync(CONSUMERS, project, { recursive: true });

  // What the entries export, and what their objects have, against the declarations.
  writeFileSync(join(project, "runtime.ts"), await runtimeShapeSource());

  const runs = MATRIX.map((combo) => {
    const config = `tsconfig.${combo.name.replace(/\W+/g, "-")}.json`;
    const compilerOptions = { ...BASE, target: combo.lib[0], lib: combo.lib, ...combo.options };
    writeFileSync(join(project, config), JSON.stringify({ compilerOptions, files: filesFor(combo) }, null, 2));
    return { name: combo.name, config };
  });
  writeFileSync(join(project, "tsconfig.misuse.json"), JSON.stringify({ compilerOptions: { ...BASE, target: "es2020", lib: ["es2020"] }, files: ["misuse.ts"] }));
  runs.push({ name: "misuse", config: "tsconfig.misuse.json" });

  const outcomes = await inPairs(runs.map((run) => () => typeCheck(project, run.config)));
  runs.forEach((run, i) => results.set(run.name, outcomes[i]));
});

afterAll(() => {
  // The links go with the project; what they point to stays.
  if (project) rmSync(project, { recursive: true, force: true });
});

test.each(MATRIX.map((combo) => [combo.name, filesFor(combo).join(", ")]))(
  "%s: %s type-check with no error",
  (name) => {
    expect(results.get(name)).toEqual({ status: 0, output: "" });
  },
);

test("a refused use fails the check: misuse.ts's three lines, and nothing else", () => {
  const { status, output } = results.get("misuse");
  expect(status).not.toBe(0);
  const errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
  expect(errors).toEqual([
    expect.stringMatching(/^misuse\.ts\(6,\d+\): error TS2322: Type '"native"' is not assignable/),
    expect.stringMatching(/^misuse\.ts\(7,\d+\): error TS2339: Property 'dataType' does not exist on type 'NativeCodec'/),
    expect.stringMatching(/^misuse\.ts\(9,\d+\): error TS2820: Type '"flaot32"' is not assignable to type '.*'\. Did you mean '"float32"'\?$/),
  ]);
});

test("a misspelt read dtype is told the types read casts to, not that dtype is no option", () => {
  const { output } = results.get("misuse");
  const [line] = output.split("\n").filter((l) => l.startsWith("misuse.ts(9,"));
  expect(line).not.toMatch(/does not exist|No overload/);
  // The types as TypeScript prints a long union: the first ones, then
  // "... n more ...", and undefined (the option may be left out).
  const [, listed] = line.match(/is not assignable to type '(.*)'\. Did you mean/);
  const names = listed.split(" | ").filter((t) => !/^\.\.\. \d+ more \.\.\.$/.test(t) && t !== "undefined").map((t) => JSON.parse(t));
  const more = Number(listed.match(/\.\.\. (\d+) more \.\.\./)?.[1] ?? 0);
  // Each a type read's dtype takes at run time, and all of them counted.
  expect(names.length).toBeGreaterThanOrEqual(10);
  for (const name of names) expect({ name, numeric: NUMERIC_TYPE_NAMES.includes(name) }).toEqual({ name, numeric: true });
  expect(names.length + more).toBe(NUMERIC_TYPE_NAMES.length);
});

test("zarr-codecs-wasm/fizarrita-worker declares no export, as its script has none", () => {
  const script = readFileSync(join(ROOT, "js", "integrations", "fizarrita-worker.js"), "utf8");
  expect(script).not.toMatch(/^\s*export\b/m);
  const declarations = readFileSync(join(ROOT, "js", "integrations", "fizarrita-worker.d.ts"), "utf8");
  expect(declarations.replace(/\/\/.*$/gm, "").trim()).toBe("export {};");
});
