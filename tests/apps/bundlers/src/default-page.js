// The zero-configuration build: the main entry, whose ready() finds the
// wasm itself. The page compiles the .wasm file the bundler emitted from
// the package's `new URL(..., import.meta.url)`; its worker takes the copy
// inlined in the package (a worker never fetches the file: Vite's iife
// worker carries the inlined copy anyway).
import { BytesCodec, PackBitsCodec, ready } from "zarr-codecs-wasm";
import { decodeCases } from "./decode-cases.js";
import { ask, fetchedPaths } from "./worker-client.js";

const worker = new Worker(new URL("./default-worker.js", import.meta.url), { type: "module" });

window.run = async (cases) => {
  await ready();
  const page = decodeCases({ BytesCodec, PackBitsCodec }, cases);
  const answer = await ask(worker, { cases });
  return { page, worker: answer.decoded, fetched: { page: fetchedPaths(), worker: answer.fetched } };
};
window.loaded = true;
