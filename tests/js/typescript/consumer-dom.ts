// With the DOM lib: its URL, Response and WebAssembly.Module are accepted
// where the declarations name structural stand-ins, and the module
// compiledWasm() returns is a WebAssembly.Module.
import { compiledWasm, ready, BytesCodec } from "zarr-codecs-wasm";

export async function loadInPage(worker: Worker): Promise<WebAssembly.Module> {
  const url = new URL("./zarr-codecs-wasm.wasm", import.meta.url);
  await ready({ wasm: url });
  await ready({ wasm: fetch(url) });
  await ready({ wasm: await fetch(url) });
  await ready({ wasm: () => WebAssembly.compileStreaming(fetch(url)) });
  await ready({ wasm: await WebAssembly.compile(new Uint8Array(8)) });
  const module: WebAssembly.Module = compiledWasm();
  worker.postMessage(module);
  await ready({ wasm: module });
  // @ts-expect-error a Request is no wasm source
  await ready({ wasm: new Request(url) });
  const codec = BytesCodec.fromConfig({ endian: "little" }, { dataType: "float32", shape: [2] });
  codec.dispose();
  return module;
}
