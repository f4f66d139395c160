// Loading the committed fixture stores (written by scripts/make-fixtures.py).
import { afterAll, beforeAll } from "@jest/globals";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
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

/**
 * Arrays of the fixture folder `root` as a fresh in-memory store (a Map,
 * "/name/c/0" -> bytes), for tests that write into them.
 */
export function fixtureInMemory(root, names) {
  const store = new Map();
  const walk = (dir, prefix) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path, `${prefix}/${entry}`);
      else store.set(`${prefix}/${entry}`, new Uint8Array(readFileSync(path)));
    }
  };
  for (const name of names) walk(join(root, name), `/${name}`);
  return store;
}

/** What an in-memory store holds, as hex: a write that was refused must leave it as it was. */
export function snapshotOf(store) {
  return new Map([...store].map(([k, v]) => [k, Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex")]));
}
