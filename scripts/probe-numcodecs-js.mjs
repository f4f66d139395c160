// What numcodecs.js (node_modules/numcodecs, what zarrita loads for zstd,
// blosc and lz4; fflate for gzip and zlib) does with hostile compressed
// chunks, beside what this package's decoder says about the same bytes
// (the read module's zcw_decompress). Each numcodecs.js case runs in a
// child process of its own with a time limit, since some never return.
// The frames come from tests/fixtures/compressed (numcodecs' own).
// docs/reliability.md, "Hostile compressed chunks", records the output.
//
//   node scripts/probe-numcodecs-js.mjs
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { instantiate } from "../js/wasm/load.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = (name) => new Uint8Array(readFileSync(join(root, "tests/fixtures/compressed", name)));
const LIMIT_MS = 10000;

const le32 = (b, at, v) => {
  const out = b.slice();
  new DataView(out.buffer).setUint32(at, v, true);
  return out;
};
const cut = (b, n) => b.slice(0, b.length - n);
const flip = (b, at) => {
  const out = b.slice();
  out[at] ^= 0xff;
  return out;
};
const times = (b, k) => {
  const out = new Uint8Array(b.length * k);
  for (let i = 0; i < k; i++) out.set(b, i * b.length);
  return out;
};

const blosc = fixture("blosc-lz4-shuffle-t2.blosc");
const bloscZstd = fixture("blosc-zstd-shuffle-t2.blosc");
const zstd = fixture("zstd-l3.zst");
const lz4 = fixture("lz4-a1.lz4");
const gzip = fixture("gzip-l1.gz");
const zlib = fixture("zlib-l1.zz");
const raw = fixture("u16-32x64.raw");

// [what, codec, bytes, the chunk's size, a good frame to decode afterwards]
const cases = [
  ["blosc (lz4) truncated by 100 bytes", "blosc", cut(blosc, 100), 4096, blosc],
  ["blosc (zstd) truncated by 100 bytes", "blosc", cut(bloscZstd, 100), 4096, blosc],
  ["blosc header cbytes past the frame (+1000)", "blosc", le32(blosc, 12, blosc.length + 1000), 4096, blosc],
  ["blosc header nbytes 2x", "blosc", le32(blosc, 4, 8192), 4096, blosc],
  ["blosc header blocksize 2^30", "blosc", le32(blosc, 8, 1 << 30), 4096, blosc],
  ["blosc one byte flipped in the data", "blosc", flip(blosc, 200), 4096, blosc],
  ["zstd truncated by 10 bytes", "zstd", cut(zstd, 10), 4096, zstd],
  ["zstd garbage after the frame", "zstd", Uint8Array.of(...zstd, 1, 2, 3, 4, 5, 6, 7, 8), 4096, zstd],
  ["zstd cut inside its first of two frames (1200 bytes)", "zstd", fixture("zstd-two-frames.zst").slice(0, 1200), 4096, zstd],
  ["zstd streamed frame (no content size)", "zstd", fixture("zstd-streamed.zst"), 4096, zstd],
  ["zstd byte 40 flipped", "zstd", flip(zstd, 40), 4096, zstd],
  ["lz4 header says 2x", "lz4", le32(lz4, 0, 8192), 4096, lz4],
  ["lz4 header says 1 GiB", "lz4", le32(lz4, 0, 1 << 30), 4096, lz4],
  ["lz4 header says half", "lz4", le32(lz4, 0, 2048), 4096, lz4],
  ["lz4 truncated by 10 bytes", "lz4", cut(lz4, 10), 4096, lz4],
  ["gzip truncated by 10 bytes", "gzip", cut(gzip, 10), 4096, gzip],
  ["gzip CRC-32 wrong", "gzip", flip(gzip, gzip.length - 8), 4096, gzip],
  ["gzip 64 members (64x the chunk)", "gzip", times(gzip, 64), 4096, gzip],
  ["zlib Adler-32 wrong", "zlib", flip(zlib, zlib.length - 1), 4096, zlib],
  ["zlib truncated by 10 bytes", "zlib", cut(zlib, 10), 4096, zlib],
];

// A child: numcodecs.js decodes the case, then the good frame.
if (process.argv[2] === "--child") {
  const codecName = process.argv[3];
  const [hex, goodHex] = readFileSync(0, "utf8").trim().split(" ");
  const numcodecs = await import("numcodecs");
  const Codec = { blosc: numcodecs.Blosc, zstd: numcodecs.Zstd, lz4: numcodecs.LZ4, gzip: numcodecs.GZip, zlib: numcodecs.Zlib }[codecName];
  const codec = new Codec();
  const report = {};
  try {
    const out = await codec.decode(Uint8Array.from(Buffer.from(hex, "hex")));
    report.result = `returns ${out.length} bytes`;
  } catch (error) {
    report.result = `throws ${error?.constructor?.name}: ${String(error?.message ?? error).slice(0, 80)}`;
  }
  try {
    const out = await codec.decode(Uint8Array.from(Buffer.from(goodHex, "hex")));
    report.after = out.length === raw.length && Buffer.compare(Buffer.from(out), Buffer.from(raw)) === 0 ? "good frame reads right" : `good frame: ${out.length} bytes, wrong`;
  } catch (error) {
    report.after = `good frame throws: ${String(error?.message ?? error).slice(0, 60)}`;
  }
  console.log(JSON.stringify(report));
  process.exit(0);
}

const factory = (await import(pathToFileURL(join(root, "dist/zarr-codecs-wasm.mjs")).href)).default;
const m = await instantiate(factory, await WebAssembly.compile(readFileSync(join(root, "dist/zarr-codecs-wasm.wasm"))));
const kinds = { zstd: 0, gzip: 1, zlib: 2, lz4: 3, blosc: 4 };
function ours(codec, bytes, size) {
  const at = m._zcw_alloc(Math.max(bytes.length, 1));
  const out = m._zcw_alloc(size);
  m.HEAPU8.set(bytes, at);
  const failed = m._zcw_decompress(kinds[codec], at, bytes.length, out, size);
  const result = failed ? m.decompressStatus().code : "decodes";
  m._zcw_free(at);
  m._zcw_free(out);
  return result;
}

const rows = [];
for (const [what, codec, bytes, size, good] of cases) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", codec], {
    input: `${Buffer.from(bytes).toString("hex")} ${Buffer.from(good).toString("hex")}`,
    encoding: "utf8",
    timeout: LIMIT_MS,
    cwd: root,
  });
  let report;
  if (child.error?.code === "ETIMEDOUT" || child.signal) report = { result: `no answer in ${LIMIT_MS / 1000} s (killed)`, after: "-" };
  else if (child.error) throw child.error;
  else if (child.status !== 0) report = { result: `the process dies (${child.status}): ${(child.stderr ?? "").trim().split("\n").pop()?.slice(0, 60)}`, after: "-" };
  else report = JSON.parse(child.stdout.trim().split("\n").pop());
  rows.push({ chunk: what, "numcodecs.js": report.result, "then a good frame": report.after, "zarr-codecs-wasm": ours(codec, bytes, size) });
}
console.table(rows);
