// 100,000 codecs created and dropped, and 100,000 created and disposed:
// the C++ side of each is freed (by the FinalizationRegistry, or by
// dispose()), so the wasm heap does not grow and no embind handle or C++
// codec stays alive. Run with --expose-gc; the last line is JSON for the
// test that runs this.
import { BytesCodec, NumcodecsPackBitsCodec, PackBitsCodec, ready } from "../../js/index.js";
import { wasm } from "../../js/wasm/load.js";

const N = Number(process.argv[2] ?? 100000);
await ready();
const m = wasm();

const make = [
  () => BytesCodec.fromConfig({ endian: "big" }, { dataType: "int32", shape: [64, 64] }),
  () => PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [256, 256] }),
  () => NumcodecsPackBitsCodec.fromConfig(undefined, { dataType: "bool", shape: [1001] }),
];

// Finalizers run after a GC, asynchronously: collect, yield, repeat until
// the count settles.
async function collect() {
  let last = -1;
  for (let i = 0; i < 50 && m.liveInstances() !== last; i++) {
    last = m.liveInstances();
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const state = () => ({ wasmHeapBytes: m.HEAPU8.length, liveCodecs: m.liveInstances(), embindHandles: m.count_emval_handles() });

await collect();
const before = state();
// Dropped codecs are freed when JS collects them, so the wasm heap holds
// as many as live between collections. An application's GC runs as it
// allocates; here it is forced every 1,000 codecs, with the finalizers
// given a turn.
let peak = 0;
for (let i = 0; i < N; i++) {
  make[i % 3](); // created and dropped
  if (i % 1000 === 999) {
    peak = Math.max(peak, m.liveInstances());
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
await collect();
const dropped = state();
for (let i = 0; i < N; i++) make[i % 3]().dispose();
const disposed = state();
// Without forced collections: how many pile up before V8 collects on its
// own, and what that costs the heap (wasm memory never shrinks).
let burstPeak = 0;
for (let i = 0; i < N; i++) {
  make[i % 3]();
  if (i % 10000 === 9999) {
    burstPeak = Math.max(burstPeak, m.liveInstances());
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
await collect();
const burst = state();
const kept = make[1]();
kept.dispose();
let afterDispose = "";
try {
  kept.decode(new Uint8Array(98304));
} catch (error) {
  afterDispose = `${error.code}: ${error.message}`;
}
console.log(`before:   wasm heap ${before.wasmHeapBytes} bytes, ${before.liveCodecs} live C++ codecs, ${before.embindHandles} embind handles`);
console.log(`dropped:  ${N} codecs created and dropped (GC every 1,000; at most ${peak} alive before one); wasm heap ${dropped.wasmHeapBytes}, ${dropped.liveCodecs} live, ${dropped.embindHandles} handles`);
console.log(`disposed: ${N} codecs created and disposed; wasm heap ${disposed.wasmHeapBytes}, ${disposed.liveCodecs} live, ${disposed.embindHandles} handles`);
console.log(`burst:    ${N} codecs created and dropped with no forced GC: up to ${burstPeak} alive at once; afterwards wasm heap ${burst.wasmHeapBytes}, ${burst.liveCodecs} live, ${burst.embindHandles} handles`);
console.log(`use after dispose: ${afterDispose}`);
console.log(JSON.stringify({ n: N, before, dropped, disposed, burst, peak, burstPeak, afterDispose }));
