// The fenced code blocks of the README and docs/, as the docs tests read
// them: each with its file, line, language, code, and the reason it is not
// run where the line before it says so:
//   <!-- docs-test: not run: <reason> -->
// (tests/js/docs/code-blocks.test.js runs the rest; examples-typecheck
// type-checks the same JavaScript blocks as TypeScript.)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** What the docs tests run: JavaScript blocks, as ES modules. */
export const RUN = new Set(["js", "javascript", "mjs"]);
const SKIP = /^<!-- docs-test: not run: (.+) -->$/;

/** The Markdown files under `root`: the README and everything under docs/. */
export function markdownFiles(root) {
  const out = [join(root, "README.md")];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md")) out.push(path);
    }
  };
  walk(join(root, "docs"));
  return out;
}

/** Fenced blocks of one file: { file (relative to `root`), line, lang, code, skip }. */
export function codeBlocks(root, path) {
  const lines = readFileSync(path, "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[1];
    let j = i + 1;
    while (j < lines.length && lines[j] !== `${fence}\`\`\``) j++;
    if (j === lines.length) throw new Error(`${path}:${i + 1}: a code fence that never closes`);
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === "") k--;
    const marker = k >= 0 ? SKIP.exec(lines[k].trim()) : null;
    blocks.push({
      file: relative(root, path),
      line: i + 1,
      lang: open[2].toLowerCase(),
      code: lines.slice(i + 1, j).map((l) => l.slice(fence.length)).join("\n"),
      skip: marker?.[1],
    });
    i = j;
  }
  return blocks;
}

/** Every block of the README and docs/. */
export function allBlocks(root) {
  return markdownFiles(root).flatMap((path) => codeBlocks(root, path));
}

/** The JavaScript blocks the docs tests run (those not marked "not run"). */
export function runnableBlocks(root) {
  return allBlocks(root).filter((b) => RUN.has(b.lang) && !b.skip);
}
