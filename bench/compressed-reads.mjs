// End to end on compressed chunks (issue 29): a 4096 x 4096 uint16 12-bit
// image in 512 x 512 chunks, written by Debian's zarr-python 2 and
// numcodecs (bench/make-compressed-store.py) as zstd level 3, blosc lz4
// with byte shuffle, gzip level 1, and read from memory, side by side in
// one process, by:
//   zarrita      zarrita 0.7.5 alone: its own codecs (numcodecs.js for
//                zstd and blosc, DecompressionStream for gzip)
//   get          zarr.get with the package registered (its compressors)
//   read         read()
//   into         read() into an array made once
// for the whole image, a 3000 x 3000 region, and one 512 x 512 tile. The
// ratios are zarrita's time over each. zarrita's own codecs are kept by
// opening (and reading once) its arrays before register(): zarrita loads
// an array's codecs once, on its first read.
//
// A full run writes bench/compressed-reads-results.md and .json (not with
// --quick or --no-write).
//
//   node --expose-gc bench/compressed-reads.mjs [--quick] [--no-write] [--rounds=N]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { diagnostics, read, ready, register } from "../js/index.js";
import { sideBySideAsync } from "./timing.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? (quick ? 3 : 9));
const write = !quick && !args.includes("--no-write");
const STORES = ["zstd", "blosc-lz4", "gzip"];

/** Every file of a folder in memory ("/a/0.0" -> bytes). */
function loadFolder(dir) {
  const files = new Map();
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(`/${relative(dir, p)}`, new Uint8Array(readFileSync(p)));
    }
  };
  walk(dir);
  return files;
}

const dir = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-bench-"));
try {
  execFileSync("/usr/bin/python3", [join(root, "bench/make-compressed-store.py"), dir, ...(quick ? ["--quick"] : [])], { stdio: "inherit" });
  const files = loadFolder(join(dir, "image.zarr"));
  const store = { get: async (key) => files.get(key) };
  // zarrita's own codecs, loaded by a first read before register().
  const plain = {};
  for (const name of STORES) {
    plain[name] = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
    await zarr.get(plain[name], [zarr.slice(0, 1), zarr.slice(0, 1)]);
  }
  await ready();
  register(zarr.registry);
  const side = plain.zstd.shape[0];
  const chunk = plain.zstd.chunks[0];
  const region = Math.round((3000 / 4096) * side);
  const selections = {
    whole: null,
    [`${region} x ${region} region`]: [zarr.slice(0, region), zarr.slice(0, region)],
    [`${chunk} x ${chunk} tile`]: [zarr.slice(chunk, 2 * chunk), zarr.slice(chunk, 2 * chunk)],
  };
  const results = [];
  for (const name of STORES) {
    const ours = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
    for (const [label, selection] of Object.entries(selections)) {
      const n = selection ? (selection[0].stop - selection[0].start) * (selection[1].stop - selection[1].start) : side * side;
      const into = new Uint16Array(n);
      // The same values from each, before timing anything.
      const want = (await zarr.get(plain[name], selection)).data;
      for (const got of [(await zarr.get(ours, selection)).data, (await read(ours, selection)).data]) {
        if (Buffer.compare(Buffer.from(got.buffer, got.byteOffset, got.byteLength), Buffer.from(want.buffer, want.byteOffset, want.byteLength)) !== 0) {
          throw new Error(`${name} ${label}: the package read other values than zarrita`);
        }
      }
      const before = diagnostics().reads().decompressed;
      await read(ours, selection);
      const inWasm = diagnostics().reads().decompressed - before;
      const best = await sideBySideAsync({
        zarrita: () => zarr.get(plain[name], selection),
        get: () => zarr.get(ours, selection),
        read: () => read(ours, selection),
        into: () => read(ours, selection, { into }),
      }, rounds);
      const row = { store: name, selection: label, ms: best, ratios: { get: best.zarrita / best.get, read: best.zarrita / best.read, into: best.zarrita / best.into }, chunksInWasm: inWasm };
      results.push(row);
      const f = (x) => x.toFixed(x < 10 ? 2 : 1);
      console.log(
        `${name.padEnd(10)} ${label.padEnd(22)} zarrita ${f(best.zarrita).padStart(7)} ms | get ${f(best.get).padStart(7)} (${row.ratios.get.toFixed(2)}x) | read ${f(best.read).padStart(7)} (${row.ratios.read.toFixed(2)}x) | into ${f(best.into).padStart(7)} (${row.ratios.into.toFixed(2)}x) | ${inWasm} chunks decoded in wasm`,
      );
    }
  }
  if (write) {
    const machine = `${cpus().length} cores (${cpus()[0]?.model?.trim() ?? "unknown CPU"}), Node ${process.version}`;
    const f = (x) => x.toFixed(x < 10 ? 2 : 1);
    const lines = [
      `Compressed reads end to end, measured ${new Date().toISOString().slice(0, 10)} on ${machine}.`,
      "",
      `A ${side}x${side} uint16 12-bit image in ${chunk}x${chunk} chunks from memory, written by zarr-python 2 and numcodecs; ms, best of ${rounds}; x = zarrita alone / the package:`,
      "| store | selection | zarrita alone | zarr.get, registered | read | read into | x get | x read | x into |",
      "|---|---|---|---|---|---|---|---|---|",
      ...results.map((r) => `| ${r.store} | ${r.selection} | ${f(r.ms.zarrita)} | ${f(r.ms.get)} | ${f(r.ms.read)} | ${f(r.ms.into)} | ${r.ratios.get.toFixed(2)}x | ${r.ratios.read.toFixed(2)}x | ${r.ratios.into.toFixed(2)}x |`),
      "",
    ];
    writeFileSync(join(root, "bench/compressed-reads-results.md"), lines.join("\n"));
    writeFileSync(join(root, "bench/compressed-reads-results.json"), `${JSON.stringify({ machine, rounds, results }, null, 1)}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
