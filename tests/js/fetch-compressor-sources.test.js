// scripts/fetch-compressor-sources.sh without apt or the network: its
// --from-tarballs way (any system) checked with Debian's tarballs that
// setup fetched, a stand-in for an upstream tarball and damaged or missing
// files; its apt way (Debian, Ubuntu) only through --dry-run, with a
// stand-in /etc/os-release and apt commands that record being called.
// What is expected comes from cmake/compressor-sources.pin, read here, and
// from the trees the apt way unpacked (ZCW_THIRD_PARTY or third_party/).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./support/browser.js";

const SCRIPT = join(ROOT, "scripts/fetch-compressor-sources.sh");
const FETCHED = process.env.ZCW_THIRD_PARTY || join(ROOT, "third_party");
const DOWNLOADS = join(FETCHED, "downloads");

// The pin file's lines, by kind.
const PIN_TEXT = readFileSync(join(ROOT, "cmake/compressor-sources.pin"), "utf8");
const pinLines = PIN_TEXT.split("\n").filter((line) => /^[a-z]/.test(line));
const fieldsOf = (line) => line.trim().split(/\s+/);
const LIBRARIES = pinLines
  .filter((line) => !/^(patch|upstream) /.test(line))
  .map((line) => {
    const [dir, source, version, tarball, sha256, licenses] = fieldsOf(line);
    return { line, dir, source, version, tarball, sha256, licenses: licenses.split(",") };
  });
const PATCHES = pinLines
  .filter((line) => line.startsWith("patch "))
  .map((line) => {
    const [, dir, tarball, sha256, path] = fieldsOf(line);
    return { line, dir, tarball, sha256, path };
  });
const UPSTREAM = Object.fromEntries(
  pinLines
    .filter((line) => line.startsWith("upstream "))
    .map((line) => {
      const [, dir, url, name, sha256, removed] = fieldsOf(line);
      return [dir, { url, name, sha256, removed }];
    }),
);
const library = (dir) => LIBRARIES.find((l) => l.dir === dir);
// What the build checks each tree's .zcw-pin against (cmake/compressors.cmake):
// its library line, then its patch lines.
const stampOf = (dir) => [library(dir).line, ...PATCHES.filter((p) => p.dir === dir).map((p) => p.line)].join("\n") + "\n";
const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

let scratch;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-fetch-"));
  for (const file of [...LIBRARIES, ...PATCHES].map((l) => l.tarball)) {
    if (!existsSync(join(DOWNLOADS, file))) {
      throw new Error(`${join(DOWNLOADS, file)} is missing: run bash scripts/fetch-compressor-sources.sh (or set ZCW_THIRD_PARTY) first`);
    }
  }
});
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

let folders = 0;
// A folder of tarballs: Debian's (those named, under the names given, or
// their own), and more files.
function tarballs(files = [...LIBRARIES, ...PATCHES].map((l) => [l.tarball, l.tarball])) {
  const dir = join(scratch, `tarballs-${++folders}`);
  mkdirSync(dir);
  for (const [file, as] of files) copyFileSync(join(DOWNLOADS, file), join(dir, as));
  return dir;
}
function fetch(args, env = {}, script = SCRIPT) {
  return spawnSync("bash", [script, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
}
const sameTree = (a, b) => spawnSync("diff", ["-r", a, b], { encoding: "utf8" });

describe("--from-tarballs", () => {
  test("takes Debian's tarballs by their sha256, whatever their names, and unpacks the trees the apt way unpacks, stamped as the build expects", () => {
    // Each file under a name that says nothing: the sha256 decides.
    const from = tarballs([...LIBRARIES, ...PATCHES].map((l, i) => [l.tarball, `file-${i}`]));
    const dest = join(scratch, "third-party-debian");
    const run = fetch(["--from-tarballs", from], { ZCW_THIRD_PARTY: dest });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    for (const { dir, source, version, licenses } of LIBRARIES) {
      expect(run.stdout).toContain(`${dir} from Debian's ${source} ${version}`);
      expect(readFileSync(join(dest, dir, ".zcw-pin"), "utf8")).toBe(stampOf(dir));
      for (const license of licenses) expect(existsSync(join(dest, dir, license))).toBe(true);
      expect(sameTree(join(dest, dir), join(FETCHED, dir))).toMatchObject({ status: 0, stdout: "" });
    }
    expect(run.stdout).toContain("zstd: applied Debian's 0020-upstream-fix-block-splitter.patch");
    // The patch's fix (upstream commit 395a2c5) is in the tree.
    expect(readFileSync(join(dest, "zstd/lib/compress/zstd_compress.c"), "utf8")).toContain("longLitLenIdx");
    expect(readdirSync(dest).sort()).toEqual(LIBRARIES.map((l) => l.dir).sort());

    const again = fetch(["--from-tarballs", from], { ZCW_THIRD_PARTY: dest });
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(`fetch-compressor-sources: every library is in ${dest} as pinned\n`);
  });

  test("refuses a damaged tarball, naming it, the sha256 it has and the one expected, and unpacks nothing", () => {
    const from = tarballs();
    const damaged = join(from, library("lz4").tarball);
    appendFileSync(damaged, "x");
    const dest = join(scratch, "third-party-damaged");
    const run = fetch(["--from-tarballs", from], { ZCW_THIRD_PARTY: dest });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the tarballs in ${from} are not all as pinned (cmake/compressor-sources.pin); nothing unpacked:`);
    // lz4's upstream tarball and Debian's are the same file (one sha256).
    expect(UPSTREAM.lz4.sha256).toBe(library("lz4").sha256);
    expect(run.stderr).toContain(`${damaged}: sha256 ${sha256(damaged)}, expected ${library("lz4").sha256} (${UPSTREAM.lz4.url}, the same file as Debian's`);
    expect(run.stderr.trim().split("\n")).toHaveLength(2); // the headline and the one problem
    expect(readdirSync(dest)).toEqual([]);
  });

  test("names what to download for a tarball that is not there: upstream's URL and sha256, or Debian's, and the patch's packaging", () => {
    const blosc = library("c-blosc");
    const zstdPackaging = PATCHES.find((p) => p.dir === "zstd");
    const from = tarballs(
      [...LIBRARIES, ...PATCHES].filter((l) => l !== blosc && l !== zstdPackaging).map((l) => [l.tarball, l.tarball]),
    );
    const dest = join(scratch, "third-party-missing");
    const run = fetch(["--from-tarballs", from], { ZCW_THIRD_PARTY: dest });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `c-blosc: no tarball in ${from} with the sha256 upstream's ${UPSTREAM["c-blosc"].sha256} (${UPSTREAM["c-blosc"].url}) ` +
        `or Debian's ${blosc.sha256} (https://deb.debian.org/debian/pool/main/c/c-blosc/${blosc.tarball})`,
    );
    expect(run.stderr).toContain(
      `zstd: no ${zstdPackaging.tarball} in ${from} (Debian's packaging of libzstd 1.5.4+dfsg2-5, sha256 ${zstdPackaging.sha256}, ` +
        `which holds the patch the pin names: https://deb.debian.org/debian/pool/main/libz/libzstd/${zstdPackaging.tarball})`,
    );
    expect(readdirSync(dest)).toEqual([]);
  });

  test("takes an upstream tarball by its upstream sha256 and removes what Debian's tarball leaves out (c-blosc's internal-complibs)", () => {
    // A stand-in for upstream's c-blosc 1.21.3 (not downloaded here): Debian's
    // tree, which is upstream's without internal-complibs, with one put back,
    // under upstream's top folder. A copy of the script runs with a pin whose
    // c-blosc upstream sha256 is the stand-in's.
    const blosc = library("c-blosc");
    const work = join(scratch, "upstream-stand-in");
    const tree = join(work, "c-blosc-1.21.3");
    mkdirSync(join(tree, "internal-complibs", "zstd-1.5.2"), { recursive: true });
    execFileSync("tar", ["-xf", join(DOWNLOADS, blosc.tarball), "-C", tree, "--strip-components=1"]);
    writeFileSync(join(tree, "internal-complibs", "zstd-1.5.2", "zstd.h"), "#error c-blosc's own zstd must not be built\n");
    const from = tarballs(
      [...LIBRARIES, ...PATCHES].filter((l) => l !== blosc).map((l) => [l.tarball, l.tarball]),
    );
    const standIn = join(from, UPSTREAM["c-blosc"].name);
    execFileSync("tar", ["-czf", standIn, "-C", work, "c-blosc-1.21.3"]);
    const repo = join(work, "repo");
    mkdirSync(join(repo, "scripts"), { recursive: true });
    mkdirSync(join(repo, "cmake"));
    copyFileSync(SCRIPT, join(repo, "scripts/fetch-compressor-sources.sh"));
    writeFileSync(join(repo, "cmake/compressor-sources.pin"), PIN_TEXT.replace(UPSTREAM["c-blosc"].sha256, sha256(standIn)));

    const dest = join(scratch, "third-party-upstream");
    const run = fetch(["--from-tarballs", from], { ZCW_THIRD_PARTY: dest }, join(repo, "scripts/fetch-compressor-sources.sh"));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`c-blosc from upstream's ${UPSTREAM["c-blosc"].name} in ${dest}/c-blosc`);
    expect(UPSTREAM["c-blosc"].removed).toBe("internal-complibs");
    expect(existsSync(join(dest, "c-blosc", "internal-complibs"))).toBe(false);
    // The same tree and stamp as Debian's: the build takes it alike.
    expect(readFileSync(join(dest, "c-blosc", ".zcw-pin"), "utf8")).toBe(stampOf("c-blosc"));
    expect(sameTree(join(dest, "c-blosc"), join(FETCHED, "c-blosc"))).toMatchObject({ status: 0, stdout: "" });
  });
});

describe("the apt way, as --dry-run tells it (Debian and Ubuntu releases)", () => {
  // apt-cache knows no source package (so an entry is needed); apt-get
  // must not run in a dry run.
  let bin;
  let aptCalls;
  let keyring;
  beforeAll(() => {
    bin = join(scratch, "bin");
    mkdirSync(bin);
    aptCalls = join(scratch, "apt-calls");
    writeFileSync(join(bin, "apt-cache"), "#!/bin/sh\nexit 0\n");
    writeFileSync(join(bin, "apt-get"), `#!/bin/sh\necho "apt-get $*" >> '${aptCalls}'\nexit 1\n`);
    chmodSync(join(bin, "apt-cache"), 0o755);
    chmodSync(join(bin, "apt-get"), 0o755);
    keyring = join(scratch, "debian-archive-keyring.gpg");
    writeFileSync(keyring, "");
  });
  let systems = 0;
  function dryRun(osRelease, args = [], env = {}) {
    const file = join(scratch, `os-release-${++systems}`);
    writeFileSync(file, osRelease);
    const list = join(scratch, `zarr-codecs-wasm-src-${systems}.sources`);
    const dest = join(scratch, `third-party-dry-${systems}`);
    const run = fetch(["--dry-run", ...args], {
      PATH: `${bin}:${process.env.PATH}`,
      ZCW_OS_RELEASE: file,
      ZCW_DEBIAN_KEYRING: keyring,
      ZCW_APT_SOURCES: list,
      ZCW_THIRD_PARTY: dest,
      ...env,
    });
    // A dry run changes nothing.
    expect(existsSync(list)).toBe(false);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(aptCalls)).toBe(false);
    return { ...run, list, dest };
  }
  const entry = () => ["Types: deb-src", "URIs: http://deb.debian.org/debian", "Suites: bookworm", "Components: main", `Signed-By: ${keyring}`]
    .map((line) => `    ${line}`).join("\n");

  test.each([
    ["Debian bookworm", 'ID=debian\nVERSION_CODENAME=bookworm\n', [], "Debian bookworm: the pinned versions are this release's own source packages"],
    ["Debian trixie", 'ID=debian\nVERSION_CODENAME=trixie\n', [], "Debian trixie: the pinned versions are bookworm's, fetched from bookworm's source packages (nothing installed changes)"],
    ["Debian sid, the codename given", 'PRETTY_NAME="Debian GNU/Linux trixie/sid"\nID=debian\n', ["trixie"], "Debian trixie: the pinned versions are bookworm's"],
    ["Debian sid, no codename", 'PRETTY_NAME="Debian GNU/Linux trixie/sid"\nID=debian\n', [], "Debian (release not named in"],
    ["Ubuntu noble", 'ID=ubuntu\nID_LIKE=debian\nVERSION_CODENAME=noble\nUBUNTU_CODENAME=noble\n', [], "Ubuntu noble: the pinned versions are Debian bookworm's, fetched from Debian's archive, not Ubuntu's"],
    ["Linux Mint (an Ubuntu)", 'ID=linuxmint\nID_LIKE="ubuntu debian"\nVERSION_CODENAME=wilma\nUBUNTU_CODENAME=noble\n', [], "Ubuntu noble: the pinned versions are Debian bookworm's"],
  ])("%s: Debian bookworm's deb-src entry, signed by Debian's keyring, then apt-get source of each pinned version", (_, osRelease, args, says) => {
    const run = dryRun(osRelease, args);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`fetch-compressor-sources: ${says}`);
    expect(run.stdout).toContain(`would write ${run.list}:\n`);
    expect(run.stdout).toContain(`${entry()}\n`);
    expect(run.stdout).toMatch(/would run: (sudo )?apt-get update\n/);
    for (const { source, version, tarball } of LIBRARIES) {
      expect(run.stdout).toContain(`would run: apt-get source --download-only ${source}=${version} (in ${run.dest}/downloads), for ${tarball}`);
    }
  });

  test("Ubuntu without Debian's archive keyring stops, naming the keyring and the way without apt", () => {
    const missing = join(scratch, "no-such-keyring.gpg");
    const run = dryRun("ID=ubuntu\nID_LIKE=debian\nVERSION_CODENAME=jammy\nUBUNTU_CODENAME=jammy\n", [], { ZCW_DEBIAN_KEYRING: missing });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`signed by Debian's archive keyring, which is not here (${missing}). Install it (the debian-archive-keyring package)`);
    expect(run.stderr).toContain('run this with --from-tarballs DIR (docs/development.md, "Without apt")');
  });

  test("a system that is neither Debian nor Ubuntu is sent to --from-tarballs", () => {
    const run = dryRun('ID=fedora\nVERSION_ID=41\n');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("names neither Debian nor Ubuntu (ID=fedora): download the tarballs by hand and run this with --from-tarballs DIR");
  });
});
