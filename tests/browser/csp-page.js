// Loads the package under the page's CSP and decodes a packbits chunk:
// the main entry with nothing set up (its .wasm file, which the page
// fetches beside the package's files), with ?asset the slim entry and the
// .wasm given to ready(), or with ?worker the main entry in a module Web
// Worker (which takes the inlined copy) under the same policy.
const query = new URLSearchParams(location.search);

const violations = [];
document.addEventListener("securitypolicyviolation", (e) => violations.push(`${e.violatedDirective}: ${e.blockedURI}`));
// What of the package's dist/ the page fetched.
const fetched = () => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.startsWith("/dist/")).sort();

async function inPage() {
  const asset = query.has("asset");
  const { PackBitsCodec, ready } = await import(asset ? "/js/slim.js" : "/js/index.js");
  await ready(asset ? { wasm: new URL("/dist/zarr-codecs-wasm.wasm", location.href) } : undefined);
  const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  return Array.from(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data);
}

function inWorker() {
  const worker = new Worker("./csp-worker.js", { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      violations.push(...data.violations);
      if (data.error) reject(Object.assign(new Error(data.error.message), { code: data.error.code }));
      else resolve({ values: data.values, workerFetched: data.fetched });
    };
    worker.onerror = (event) => reject(new Error(`the worker failed to load: ${event.message}`));
  });
}

try {
  if (query.has("worker")) {
    const { values, workerFetched } = await inWorker();
    window.result = { values, violations, fetched: fetched(), workerFetched };
  } else {
    window.result = { values: await inPage(), violations, fetched: fetched() };
  }
} catch (error) {
  window.result = { error: `${error.code ?? error.name}: ${error.message}`, violations, fetched: fetched() };
}
