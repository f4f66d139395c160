// This checkout's codecs against another checkout's, side by side in one
// process (each with its own wasm instance), through the public API both
// share: how much faster or slower a change made every case. The other
// checkout must have its dist/ built.
//
//   node --expose-gc bench/against-checkout.mjs /path/to/other/checkout [--quick]
//
// Prints, per case and size, the other checkout's best time over this one's
// (> 1: this checkout is faster), after checking both give the same bytes.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { decodePeers, encodePeers, packbitsCases } from "./peers.mjs";
import { sideBySide } from "./timing.mjs";
import { randomBytes as pseudoRandom } from "../tests/js/support/reference.js";
import * as ours from "../js/index.js";

const [otherPath] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (!otherPath) throw new Error("usage: node --expose-gc bench/against-checkout.mjs /path/to/other/checkout [--quick]");
const quick = process.argv.includes("--quick");
const other = await import(pathToFileURL(resolve(otherPath, "js/index.js")).href);
await Promise.all([ours.ready(), other.ready()]);

const SIZES = quick ? [4096, 65536] : [4096, 65536, 1 << 20, 16 << 20];
const ROUNDS = 15; // --quick only leaves out the large sizes
const sizeLabel = (s) => (s >= 1 << 20 ? `${s >> 20} MiB` : `${s >> 10} KiB`);
const same = (a, b) => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
const rows = [];

function compare(what, size, mine, theirs) {
  const a = mine();
  const b = theirs();
  // decodeInto may return nothing: its outputs are compared by the caller
  if (a !== undefined && !same(a.data ?? a, b.data ?? b)) throw new Error(`${what}: the two checkouts disagree`);
  // Small calls take 3x the rounds, as in bench/run.mjs.
  const ns = sideBySide({ mine, theirs }, { rounds: size <= 65536 ? 3 * ROUNDS : ROUNDS });
  const ratio = ns.theirs / ns.mine;
  rows.push({ what, size, ratio });
  console.log(`${what.padEnd(42)} ${sizeLabel(size).padStart(7)}  ${ratio.toFixed(2)}x`);
}

for (const size of SIZES) {
  for (const [dataType, ArrayType] of [["int16", Int16Array], ["float32", Float32Array], ["float64", Float64Array]]) {
    const meta = { dataType, shape: [size / ArrayType.BYTES_PER_ELEMENT] };
    const [a, b] = [ours, other].map((p) => p.BytesCodec.fromConfig({ endian: "big" }, meta));
    const raw = pseudoRandom(size, size);
    compare(`bytes-be-decode ${dataType}`, size, () => a.decode(raw), () => b.decode(raw));
    const chunk = a.decode(raw);
    compare(`bytes-be-encode ${dataType}`, size, () => a.encode(chunk), () => b.encode(chunk));
  }
  for (const [label, { dataType, config, ArrayType }] of Object.entries(packbitsCases)) {
    const n = size / ArrayType.BYTES_PER_ELEMENT;
    const meta = { dataType, shape: [n] };
    const [a, b] = [ours, other].map((p) => p.PackBitsCodec.fromConfig(config, meta));
    const values = new ArrayType(pseudoRandom(size, n).buffer);
    const packed = encodePeers.plain[label](values);
    if (!same(a.decode(packed).data, decodePeers.plain[label](packed, n))) throw new Error(`${label}: wrong decode`);
    compare(`packbits-decode ${label}`, size, () => a.decode(packed), () => b.decode(packed));
    const [outA, outB] = [new ArrayType(n), new ArrayType(n)];
    compare(`packbits-decodeInto ${label}`, size, () => a.decodeInto(packed, outA), () => b.decodeInto(packed, outB));
    if (!same(outA, outB)) throw new Error(`${label}: decodeInto outputs differ`);
    const chunk = { data: values, shape: [n], stride: [1] };
    compare(`packbits-encode ${label}`, size, () => a.encode(chunk), () => b.encode(chunk));
  }
}
const ratios = rows.map((r) => r.ratio).sort((x, y) => x - y);
console.log(`\n${rows.length} cases: this checkout / the other, time ratio: min ${ratios[0].toFixed(2)}x, ` +
  `median ${ratios[ratios.length >> 1].toFixed(2)}x, max ${ratios[ratios.length - 1].toFixed(2)}x; ` +
  `${rows.filter((r) => r.ratio < 0.95).length} more than 5% slower here`);
