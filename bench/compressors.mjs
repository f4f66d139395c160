// npm run bench -- --compressors (scripts/bench.sh): decompression alone,
// side by side in one Node process, as ratios. The chunks are numcodecs'
// (bench/make-compressed-chunks.py, Debian's python3-numcodecs: a 4096 x
// 4096 uint16 12-bit microscopy-like image with Poisson noise, in chunks of
// 64 KiB to 16 MiB), written to a temporary folder removed at the end.
// Contenders, each decoding every chunk of a case once per round:
//   wasm            the read module's zcw_decompress, the chunks already
//                   in wasm memory, into one output buffer there
//   wasm + copy in  the same, each chunk copied into wasm memory first
//                   (what a fetched chunk costs)
//   native          the same C libraries and Decompressor built natively
//                   at -O3 (build/native-release/zcw_native_compressors,
//                   its own process, best of its rounds)
//   numcodecs.js    node_modules/numcodecs: what zarrita loads for zstd,
//                   blosc and lz4 (fflate for gzip and zlib)
//   DecompressionStream  gzip and zlib ("deflate"), chunk by chunk, as
//                   zarrita's gzip and zlib codecs run
// Every contender's output is checked against ours first.
//
//   node --expose-gc bench/compressors.mjs [--quick] [--rounds=N]
//        [--only=SUBSTRING] [--wasm=DIR] [--keep=DIR] [--wall]
// --wasm=DIR times DIR/zarr-codecs-wasm.{mjs,wasm} instead of dist/ (the
// builds compared in docs/architecture.md); --keep=DIR reuses (or leaves)
// the chunks there.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Blosc, GZip, LZ4, Zlib, Zstd } from "numcodecs";
import { instantiate } from "../js/wasm/load.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const options = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [key, value] = a.replace(/^--/, "").split("=");
    return [key, value ?? true];
  }),
);
const quick = Boolean(options.quick);
const ROUNDS = Number(options.rounds ?? (quick ? 2 : 5));
const KINDS = { zstd: 0, gzip: 1, zlib: 2, lz4: 3, blosc: 4 };
const gc = globalThis.gc ?? (() => {});

// The clock: the process's CPU time (user + system, all its threads, so
// DecompressionStream's work on Node's thread pool counts), not wall time:
// these machines are shared, and a process that waits for a core is not
// doing work. --wall times wall-clock instead.
const WALL = Boolean(options.wall);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
};
const clock = WALL ? () => Number(process.hrtime.bigint()) / 1e6 : cpuMs;

// The chunks, written by numcodecs.
const kept = typeof options.keep === "string" ? options.keep : undefined;
const dir = kept ?? mkdtempSync(join(tmpdir(), "zcw-bench-chunks-"));
if (!existsSync(join(dir, "cases.tsv"))) {
  mkdirSync(dir, { recursive: true });
  console.error(`compressors: writing the chunks with numcodecs into ${dir}`);
  execFileSync("/usr/bin/python3", [join(root, "bench/make-compressed-chunks.py"), dir, ...(quick ? ["--quick"] : [])], {
    stdio: "inherit",
  });
}
const cleanup = () => {
  if (!kept) rmSync(dir, { recursive: true, force: true });
};
process.on("exit", cleanup);

const cases = readFileSync(join(dir, "cases.tsv"), "utf8")
  .trim()
  .split("\n")
  .map((line) => {
    const [name, kind, decoded, count, folder] = line.split("\t");
    return { name, kind, decoded: Number(decoded), count: Number(count), folder };
  })
  .filter((c) => typeof options.only !== "string" || c.name.includes(options.only));

// The read module.
const wasmDir = typeof options.wasm === "string" ? options.wasm : join(root, "dist");
const factory = (await import(pathToFileURL(join(wasmDir, "zarr-codecs-wasm.mjs")).href)).default;
const m = await instantiate(factory, await WebAssembly.compile(readFileSync(join(wasmDir, "zarr-codecs-wasm.wasm"))));

// The native floor, all cases in one run (its own best of rounds).
const nativeBin = join(root, "build/native-release/zcw_native_compressors");
let native = {};
if (existsSync(nativeBin)) {
  const args = [dir, String(ROUNDS), options.only ?? "", WALL ? "wall" : "cpu"];
  native = JSON.parse(execFileSync(nativeBin, args, { encoding: "utf8" }));
} else {
  console.warn("compressors: no native build (scripts/bench.sh builds it); skipping the native comparison");
}

const numcodecsFor = {
  zstd: () => new Zstd(),
  gzip: () => new GZip(),
  zlib: () => new Zlib(),
  lz4: () => new LZ4(),
  blosc: () => new Blosc(),
};

async function viaStream(bytes, format) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format)));
  return new Uint8Array(await out.arrayBuffer());
}

function statusText() {
  const { code, message } = m.decompressStatus();
  return `${code}: ${message}`;
}

const sameBytes = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** Best ms per round of each contender, rounds rotated, gc before each. */
async function sideBySide(contenders) {
  const names = Object.keys(contenders);
  for (const name of names) await contenders[name](); // warm-up: JIT, tier-up, first touch
  const best = Object.fromEntries(names.map((n) => [n, Infinity]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      gc();
      const t0 = clock();
      await contenders[name]();
      best[name] = Math.min(best[name], clock() - t0);
    }
  }
  return best;
}

const rows = [];
for (const c of cases) {
  const chunks = [];
  for (let i = 0; i < c.count; i++) chunks.push(new Uint8Array(readFileSync(join(dir, c.folder, `chunk-${i}.bin`))));
  const kind = KINDS[c.kind];
  // Inputs in wasm memory, one output buffer.
  const inputs = chunks.map((chunk) => {
    const at = m._zcw_alloc(chunk.length);
    m.HEAPU8.set(chunk, at);
    return at;
  });
  const largest = Math.max(...chunks.map((x) => x.length));
  const scratchIn = m._zcw_alloc(largest);
  const out = m._zcw_alloc(c.decoded);
  const decodeAll = () => {
    for (let i = 0; i < chunks.length; i++) {
      if (m._zcw_decompress(kind, inputs[i], chunks[i].length, out, c.decoded) !== 0) throw new Error(`${c.name}: ${statusText()}`);
    }
  };
  const copyAndDecodeAll = () => {
    for (let i = 0; i < chunks.length; i++) {
      m.HEAPU8.set(chunks[i], scratchIn);
      if (m._zcw_decompress(kind, scratchIn, chunks[i].length, out, c.decoded) !== 0) throw new Error(`${c.name}: ${statusText()}`);
    }
  };
  const peer = numcodecsFor[c.kind]();
  // Every peer's output equals ours (first and last chunk).
  for (const i of [0, chunks.length - 1]) {
    if (m._zcw_decompress(kind, inputs[i], chunks[i].length, out, c.decoded) !== 0) throw new Error(`${c.name}: ${statusText()}`);
    const ours = m.HEAPU8.slice(out, out + c.decoded);
    if (!sameBytes(new Uint8Array(await peer.decode(chunks[i])), ours)) throw new Error(`${c.name}: numcodecs.js differs`);
    if (c.kind === "gzip" || c.kind === "zlib") {
      if (!sameBytes(await viaStream(chunks[i], c.kind === "gzip" ? "gzip" : "deflate"), ours)) {
        throw new Error(`${c.name}: DecompressionStream differs`);
      }
    }
  }
  const contenders = {
    wasm: decodeAll,
    "wasm + copy in": copyAndDecodeAll,
    "numcodecs.js": async () => {
      for (const chunk of chunks) await peer.decode(chunk);
    },
  };
  if (c.kind === "gzip" || c.kind === "zlib") {
    const format = c.kind === "gzip" ? "gzip" : "deflate";
    contenders.DecompressionStream = async () => {
      for (const chunk of chunks) await viaStream(chunk, format);
    };
  }
  const best = await sideBySide(contenders);
  for (const at of [...inputs, scratchIn, out]) m._zcw_free(at);
  const nativeMs = native[c.name] !== undefined ? native[c.name] / 1e6 : undefined;
  const row = {
    case: c.name,
    chunks: c.count,
    "MB/s wasm": Math.round((c.decoded * c.count) / 1e3 / best.wasm),
    "wasm / native": nativeMs ? +(best.wasm / nativeMs).toFixed(2) : "-",
    "wasm+copy / native": nativeMs ? +(best["wasm + copy in"] / nativeMs).toFixed(2) : "-",
    "numcodecs.js / wasm": +(best["numcodecs.js"] / best.wasm).toFixed(2),
    "DecompressionStream / wasm": best.DecompressionStream ? +(best.DecompressionStream / best.wasm).toFixed(2) : "-",
    "ms wasm": +best.wasm.toFixed(1),
    "ms native": nativeMs ? +nativeMs.toFixed(1) : "-",
  };
  rows.push(row);
  console.error(`compressors: ${c.name} done`);
}

console.log(`Decompression alone (${ROUNDS} rounds, best of each, ${WALL ? "wall-clock" : "process CPU"} time; ratios of` +
  ` times: above 1 means slower than wasm for the peers, slower than native for wasm)`);
console.table(rows);
cleanup();
