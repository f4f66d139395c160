// Loading the committed fixture stores (written by scripts/make-fixtures.py).
import { afterAll, beforeAll } from "@jest/globals";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import FileSystemStore from "@zarrita/storage/fs";

export function fixturePath(name) {
  return fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
}

export function openFixture(name) {
  const path = fixturePath(name);
  return {
    store: new FileSystemStore(path),
    expected: JSON.parse(readFileSync(`${path}/expected.json`, "utf8")),
  };
}

/**
 * A writable copy of the fixture folder `path` for the tests of the describe
 * block that calls this: made before them, removed after. Returns { dir },
 * filled in by then.
 */
export function fixtureCopy(path, prefix) {
  const copy = {};
  beforeAll(() => {
    copy.dir = mkdtempSync(join(tmpdir(), `zarr-codecs-wasm-${prefix}-`));
    cpSync(path, copy.dir, { recursive: true });
  });
  afterAll(() => {
    if (copy.dir) rmSync(copy.dir, { recursive: true, force: true });
  });
  return copy;
}
