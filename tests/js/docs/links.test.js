// Every link of README.md, CHANGELOG.md and docs/**/*.md leads somewhere:
// a relative link names a file or folder of the repository, and its
// #anchor a heading of that file, slugged as GitHub slugs headings; a bare
// #anchor a heading of its own file. External http(s) links are not
// fetched (the tests use no network), only checked for form: an absolute
// URL with a host. Links inside code (fenced blocks, `spans`) are not
// links and are skipped.
import { describe, expect, test } from "@jest/globals";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { markdownFiles } from "../support/markdown-blocks.js";
import { ROOT } from "../support/browser.js";

// ---- reading Markdown -----------------------------------------------------------

// The lines of a file outside fenced code blocks, with their numbers.
function proseLines(text) {
  const out = [];
  let fence = null;
  text.split("\n").forEach((line, i) => {
    const open = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      if (open && line.trim().startsWith(fence)) fence = null;
    } else if (open) {
      fence = open[1];
    } else {
      out.push({ line, number: i + 1 });
    }
  });
  return out;
}

// The paragraphs of a file outside fenced code blocks (a link's text may
// wrap onto the next line), each with the number of its first line.
function proseParagraphs(text) {
  const out = [];
  let last = -1;
  for (const { line, number } of proseLines(text)) {
    if (line.trim() === "") {
      last = -1;
    } else if (last === number - 1 && out.length) {
      out[out.length - 1].text += `\n${line}`;
      last = number;
    } else {
      out.push({ text: line, number });
      last = number;
    }
  }
  return out;
}

// Text without its code spans (a link inside one is code, not a link),
// its line breaks kept.
const withoutCode = (text) => text.replace(/(`+)[\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ""));

// Inline links and images, [text](target "title") and ![alt](target), and
// reference definitions, [label]: target: each target with its line
// within `text` (0 for the first).
function linkTargets(text) {
  const prose = withoutCode(text);
  const lineOf = (index) => prose.slice(0, index).split("\n").length - 1;
  const targets = [];
  for (const m of prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
    targets.push({ target: m[1], line: lineOf(m.index) });
  }
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+"[^"]*")?[ \t]*$/gm)) {
    targets.push({ target: m[1], line: lineOf(m.index) });
  }
  return targets;
}

// A heading's anchor as GitHub makes it: the text as rendered (code spans
// keep their text, links their label, emphasis marks go), lower-cased,
// every character but letters, digits, marks, connector punctuation
// (`_`), spaces and hyphens dropped, spaces turned into hyphens.
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .replace(/\*+/g, "");
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

// The anchors of a file's headings; a repeated slug gets -1, -2, ... as on GitHub.
function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  for (const { line } of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

// ---- checking a link -------------------------------------------------------------

/**
 * What is wrong with one link target of `file` (a path under `root`), or
 * null when it leads somewhere. `read(path)` gives a Markdown file's text.
 */
function problemOf(root, file, target, read = (p) => readFileSync(p, "utf8")) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (!/^https?:/i.test(target)) return `${target}: a scheme other than http(s)`;
    let url;
    try {
      url = new URL(target);
    } catch {
      return `${target}: not a URL`;
    }
    if (!/^https?:\/\/[^/]/i.test(target) || !url.hostname.includes(".")) return `${target}: no host`;
    return null;
  }
  if (target === "") return "an empty link";
  const hash = target.indexOf("#");
  const pathPart = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const path = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
  const inside = relative(root, path);
  if (inside.startsWith(`..${sep}`) || inside === "..") return `${target}: outside the repository`;
  if (!existsSync(path)) return `${target}: no file ${inside}`;
  if (anchor !== null) {
    if (!path.endsWith(".md")) return `${target}: an anchor into a file that is not Markdown`;
    if (!anchorsOf(read(path)).has(anchor)) return `${target}: no heading of ${inside} has the anchor #${anchor}`;
  }
  return null;
}

/** Every broken link of the Markdown file `file`: "file:line: problem". */
function brokenLinks(root, file, read = (p) => readFileSync(p, "utf8")) {
  const problems = [];
  for (const { text, number } of proseParagraphs(read(file))) {
    for (const { target, line } of linkTargets(text)) {
      const problem = problemOf(root, file, target, read);
      if (problem) problems.push(`${relative(root, file)}:${number + line}: ${problem}`);
    }
  }
  return problems;
}

const FILES = [...markdownFiles(ROOT), join(ROOT, "CHANGELOG.md")];

// ---- the checker itself, on pages made here ----------------------------------------

describe("the checker", () => {
  test("slugs headings as GitHub does (worked by hand from GitHub's rules)", () => {
    expect(slug("Reads on every core: a read pool")).toBe("reads-on-every-core-a-read-pool");
    expect(slug("Reading straight into place: `read`")).toBe("reading-straight-into-place-read");
    expect(slug("Stores on another origin (CORS)")).toBe("stores-on-another-origin-cors");
    expect(slug("`into`: no output allocated")).toBe("into-no-output-allocated");
    expect(slug("Where read and zarr.get differ")).toBe("where-read-and-zarrget-differ");
    expect(slug("0.5.0 (2026-11-26)")).toBe("050-2026-11-26");
    expect(slug("N5 [compressors](x.md) and *more*")).toBe("n5-compressors-and-more");
    expect(slug("snake_case and  two spaces")).toBe("snake_case-and--two-spaces");
  });

  test("finds missing files, missing anchors and malformed URLs, and skips code", () => {
    const root = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-links-"));
    try {
      mkdirSync(join(root, "docs"));
      writeFileSync(join(root, "README.md"), [
        "# Title",
        "## Usage",
        "## Usage",
        "[ok](docs/a.md) [ok](docs/a.md#part-one) [ok](#usage-1) [ok](https://example.com/x) ![img](docs/a.md \"A\")",
        "[bad](docs/docs/a.md) [bad](docs/a.md#part-two) [bad](#nowhere) [bad](https://nohost) [bad](ftp://example.com)",
        "`[code](missing.md)`",
        "```md",
        "[in a block](missing.md)",
        "```",
        "[ref]: docs/missing.md",
        "",
        "a [link whose text",
        "wraps](docs/gone.md) and `a span",
        "over two lines [x](nowhere.md)`",
      ].join("\n"));
      writeFileSync(join(root, "docs/a.md"), "# Part one\n[up](../README.md#usage) [out](../../outside.md)\n");
      expect(brokenLinks(root, join(root, "README.md"))).toEqual([
        "README.md:5: docs/docs/a.md: no file docs/docs/a.md",
        "README.md:5: docs/a.md#part-two: no heading of docs/a.md has the anchor #part-two",
        "README.md:5: #nowhere: no heading of README.md has the anchor #nowhere",
        "README.md:5: https://nohost: no host",
        "README.md:5: ftp://example.com: a scheme other than http(s)",
        "README.md:10: docs/missing.md: no file docs/missing.md",
        "README.md:12: docs/gone.md: no file docs/gone.md",
      ]);
      expect(brokenLinks(root, join(root, "docs/a.md"))).toEqual(["docs/a.md:2: ../../outside.md: outside the repository"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// ---- the repository's pages -----------------------------------------------------------

test("the pages checked are README.md, CHANGELOG.md and every page under docs/", () => {
  const names = FILES.map((f) => relative(ROOT, f));
  expect(names).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "docs/read.md", "docs/troubleshooting.md", "docs/recipes/viv.md"]));
  // and the checker sees their links: relative ones, with anchors, and external
  const targets = FILES.flatMap((f) => proseParagraphs(readFileSync(f, "utf8")).flatMap(({ text }) => linkTargets(text).map((t) => t.target)));
  expect(targets.filter((t) => !/^https?:/.test(t)).length).toBeGreaterThan(50);
  expect(targets.filter((t) => /^[^:]*#/.test(t)).length).toBeGreaterThan(10);
  expect(targets.filter((t) => /^https:/.test(t)).length).toBeGreaterThan(2);
});

test.each(FILES.map((f) => [relative(ROOT, f)]))("every link of %s leads somewhere", (name) => {
  expect(brokenLinks(ROOT, join(ROOT, name))).toEqual([]);
});
