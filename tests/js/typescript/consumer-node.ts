// With @types/node (no DOM lib): Node's URL, file bytes and fetch Response
// are wasm sources, and `using` works as @types/node declares Symbol.dispose.
import { readFile } from "node:fs/promises";
import { BytesCodec, compiledWasm, ready } from "zarr-codecs-wasm";

export async function inNode(): Promise<number> {
  await ready({ wasm: new URL("../node_modules/zarr-codecs-wasm/dist/zarr-codecs-wasm.wasm", import.meta.url) });
  await ready({ wasm: readFile("zarr-codecs-wasm.wasm") });
  await ready({ wasm: fetch("https://example.com/zarr-codecs-wasm.wasm") });
  await ready({ wasm: compiledWasm() });
  using codec = BytesCodec.fromConfig({}, { dataType: "uint8", shape: [1] });
  return codec.decode(Buffer.alloc(1)).data.length;
}
