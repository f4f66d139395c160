// The realm's instance replaced by a fresh one in a browser page
// (js/wasm/recycle.js: WebAssembly.instantiate of the compiled module
// again), under the page's CSP: a codec made before decodes right after,
// the instance in use is a new one, and the kernels' implementation
// carries over. The values: packbits last_bit 11 of 0xbc 0x3a 0x12,
// worked by hand as 0xabc and 0x123 (csp-page.js).
import { diagnostics, PackBitsCodec, ready } from "/js/index.js";
import { recycleNow } from "/js/wasm/recycle.js";

const decode = (codec) => Array.from(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data);

try {
  await ready();
  const d = diagnostics();
  const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  const before = decode(codec);
  d.setImplementation("portable");
  const replaced = await recycleNow();
  const after = decode(codec);
  window.result = { before, replaced, after, recycles: d.recycles(), implementation: d.implementation(), live: d.liveInstances(), memory: d.wasmMemoryBytes() };
  d.setImplementation("simd");
} catch (error) {
  window.result = { error: `${error.code ?? error.name}: ${error.message}` };
}
