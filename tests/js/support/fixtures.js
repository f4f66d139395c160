// Loading the committed fixture stores (written by scripts/make-fixtures.py).
import { readFileSync } from "node:fs";
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
