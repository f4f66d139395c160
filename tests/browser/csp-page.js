// Loads the package under the page's CSP and decodes a packbits chunk:
// the main entry's inlined wasm, or with ?asset the slim entry and the
// separate .wasm file, compiled while it streams.
const asset = new URLSearchParams(location.search).has("asset");
const { PackBitsCodec, ready } = await import(asset ? "/js/slim.js" : "/js/index.js");

const violations = [];
document.addEventListener("securitypolicyviolation", (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI}`));

try {
  await ready(asset ? { wasm: new URL("/dist/zarr-codecs-wasm.wasm", location.href) } : undefined);
  const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  const values = Array.from(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data);
  window.result = { values, violations };
} catch (error) {
  window.result = { error: `${error.code ?? error.name}: ${error.message}`, violations };
}
