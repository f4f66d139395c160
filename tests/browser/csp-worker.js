// The main entry in a module Web Worker under the page's CSP: ready() with
// nothing set up takes the inlined copy, which it compiles itself (never
// a fetch of a data: URL).
import { PackBitsCodec, ready } from "/js/index.js";

const violations = [];
self.addEventListener("securitypolicyviolation", (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
const fetched = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/dist/")).sort();

try {
  await ready();
  const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  const values = Array.from(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data);
  self.postMessage({ values, violations, fetched: fetched() });
} catch (error) {
  self.postMessage({ error: { code: error.code ?? error.name, message: error.message }, violations });
}
