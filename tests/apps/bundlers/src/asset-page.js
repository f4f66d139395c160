// The asset build: the slim entry and the .wasm file as an asset the
// bundler emits. The page compiles it once, while it downloads, and hands
// the compiled module to its worker, which neither fetches nor compiles.
import { BytesCodec, compiledWasm, PackBitsCodec, ready } from "zarr-codecs-wasm/slim";
// Each bundler has its own way to get an asset's URL: wasm-url.vite.js or
// wasm-url.webpack.js, chosen by the build's alias.
import wasmUrl from "#wasm-url";
import { decodeCases } from "./decode-cases.js";
import { ask, fetchedPaths } from "./worker-client.js";

const worker = new Worker(new URL("./asset-worker.js", import.meta.url), { type: "module" });

window.run = async (cases) => {
  await ready({ wasm: wasmUrl });
  const module = compiledWasm();
  const page = decodeCases({ BytesCodec, PackBitsCodec }, cases);
  const answer = await ask(worker, { cases, module });
  return { page, worker: answer.decoded, fetched: { page: fetchedPaths(), worker: answer.fetched } };
};
window.loaded = true;
