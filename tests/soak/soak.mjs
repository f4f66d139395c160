// A soak: OPS mixed decodes, encodes, decodeIntos, new codecs and refusals,
// each result checked, with the wasm heap, the process memory and embind's
// live handles printed at ten checkpoints (after a forced GC). Run with
// --expose-gc. The last line is JSON for the test that runs this.
import {
  BytesCodec,
  NumcodecsPackBitsCodec,
  PackBitsCodec,
  ready,
  ZarrCodecError,
} from "../../js/index.js";
import { wasm } from "../../js/wasm/load.js";
import { randomBytes as random } from "../js/support/reference.js";

const OPS = Number(process.argv[2] ?? 100000);
await ready();
const m = wasm();

const same = (a, b) => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

// Fixed inputs and their expected outputs, from the codecs' first answers
// (checked independently elsewhere); the soak checks they never change.
const mask = PackBitsCodec.fromConfig({}, { dataType: "bool", shape: [100000] });
const maskBytes = random(12500, 1);
const maskValues = mask.decode(maskBytes).data;
const camera = PackBitsCodec.fromConfig({ last_bit: 11, padding_encoding: "first_byte" }, { dataType: "uint16", shape: [256, 256] });
const cameraValues = new Uint16Array(random(2 * 65536, 2).buffer).map((v) => v & 4095);
const cameraBytes = camera.encode({ data: cameraValues });
const big = BytesCodec.fromConfig({ endian: "big" }, { dataType: "float64", shape: [5000] });
const bigBytes = random(40000, 3);
const bigValues = big.decode(bigBytes).data;
const filter = NumcodecsPackBitsCodec.fromConfig({}, { dataType: "bool", shape: [1001] });
const filterBools = random(1001, 4).map((b) => b & 1);
const filterChunk = filter.encode({ data: filterBools });
const tile = new Uint16Array(65536);

const OPERATIONS = [
  () => same(mask.decode(maskBytes).data, maskValues),
  () => same(mask.encode({ data: maskValues }), maskBytes),
  () => same(camera.decode(cameraBytes).data, cameraValues),
  () => same(camera.encode({ data: cameraValues }), cameraBytes),
  () => same(camera.decodeInto(cameraBytes, tile), cameraValues),
  () => same(big.decode(bigBytes).data, bigValues),
  () => same(big.encode({ data: bigValues }), bigBytes),
  () => same(filter.decode(filterChunk).data, filterBools),
  () => {
    // A new codec each time, dropped: its wasm side is freed when collected.
    const c = PackBitsCodec.fromConfig({ first_bit: 2, last_bit: 9 }, { dataType: "int16", shape: [33] });
    return c.computeEncodedSize(66) === 33;
  },
  // Refusals: each must throw the package's error and leave nothing behind.
  () => refuses(() => camera.decode(cameraBytes.subarray(1)), "LENGTH_MISMATCH"),
  () => refuses(() => PackBitsCodec.fromConfig({ last_bit: 99 }, { dataType: "uint16", shape: [4] }), "INVALID_CONFIGURATION"),
  () => refuses(() => BytesCodec.fromConfig({}, { dataType: "int32", shape: [4] }), "INVALID_CONFIGURATION"),
  () => refuses(() => mask.encode({ data: new Float32Array(25000) }), "INVALID_INPUT"),
  () => refuses(() => filter.decode({ data: new Uint8Array([1, 2, 3]) }), "LENGTH_MISMATCH"),
];

function refuses(call, code) {
  try {
    call();
  } catch (error) {
    return error instanceof ZarrCodecError && error.code === code;
  }
  return false;
}

// Node frees ArrayBuffer memory after a GC asynchronously: wait a tick and
// collect again before reading it.
async function snapshot(ops) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 5));
  globalThis.gc();
  const mem = process.memoryUsage();
  return {
    ops,
    wasmHeapBytes: m.HEAPU8.length,
    rssMiB: +(mem.rss / 2 ** 20).toFixed(1),
    jsHeapMiB: +(mem.heapUsed / 2 ** 20).toFixed(1),
    arrayBuffersMiB: +(mem.arrayBuffers / 2 ** 20).toFixed(1),
    embindHandles: m.count_emval_handles(),
    liveCodecs: m.liveInstances(),
  };
}

const checkpoints = [await snapshot(0)];
let wrong = 0;
const start = performance.now();
for (let i = 1; i <= OPS; i++) {
  if (!OPERATIONS[i % OPERATIONS.length]()) wrong++;
  if (i % (OPS / 10) === 0) checkpoints.push(await snapshot(i));
}
const seconds = (performance.now() - start) / 1000;

console.log("ops      wasm heap   rss MiB   JS heap MiB   ArrayBuffers MiB   embind handles   live C++ codecs");
for (const c of checkpoints) {
  console.log(`${String(c.ops).padStart(7)}  ${String(c.wasmHeapBytes).padStart(10)}  ${String(c.rssMiB).padStart(8)}  ${String(c.jsHeapMiB).padStart(12)}  ${String(c.arrayBuffersMiB).padStart(17)}  ${String(c.embindHandles).padStart(15)}  ${String(c.liveCodecs).padStart(16)}`);
}
console.log(`${OPS} operations (${OPERATIONS.length} kinds) in ${seconds.toFixed(1)} s, ${wrong} wrong`);
console.log(JSON.stringify({ ops: OPS, seconds, wrong, checkpoints }));
