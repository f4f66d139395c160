// The zero-configuration build: the main entry, whose ready() loads the
// copy of the wasm inlined in the package, in the page and in its worker.
import { BytesCodec, PackBitsCodec, ready } from "zarr-codecs-wasm";
import { decodeCases } from "./decode-cases.js";
import { ask } from "./worker-client.js";

const worker = new Worker(new URL("./inline-worker.js", import.meta.url), { type: "module" });

window.run = async (cases) => {
  await ready();
  return { page: decodeCases({ BytesCodec, PackBitsCodec }, cases), worker: await ask(worker, { cases }) };
};
window.loaded = true;
