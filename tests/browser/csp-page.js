// Loads the package under the page's CSP and decodes a packbits chunk.
import { PackBitsCodec, ready } from "/js/index.js";

const violations = [];
document.addEventListener("securitypolicyviolation", (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI}`));

try {
  await ready();
  const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  const values = Array.from(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data);
  window.result = { values, violations };
} catch (error) {
  window.result = { error: `${error.code ?? error.name}: ${error.message}`, violations };
}
