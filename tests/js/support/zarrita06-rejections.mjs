// Run by tests/js/zarrita/cast-scale-stores.test.js in a child process:
// zarr.get on zarrita 0.6.2 of a float32 array stored through
// scale_offset and cast_value, with the package registered ("registered")
// or not ("plain"). Prints { result, unhandled }: the first four values
// (or the error's message) and the messages of the unhandled rejections
// seen, which Jest would otherwise report as failures of its own.
import * as zarr from "zarrita-0.6";
import { ready, register } from "../../../js/index.js";
import { memoryStore } from "./memory-store.js";

const unhandled = [];
process.on("unhandledRejection", (reason) => unhandled.push(String(reason?.message ?? reason)));

const meta = {
  zarr_format: 3, node_type: "array", shape: [4], data_type: "float32",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 250, attributes: {},
  codecs: [
    { name: "scale_offset", configuration: { offset: 250, scale: 100 } },
    { name: "cast_value", configuration: { data_type: "uint16" } },
    { name: "bytes", configuration: { endian: "little" } },
  ],
};
const store = memoryStore([["/a/zarr.json", meta], ["/a/c/0", new Uint8Array(new Uint16Array([4392, 0, 1, 65535]).buffer)]]);

if (process.argv[2] === "registered") {
  await ready();
  register(zarr.registry);
}
let result;
try {
  const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
  result = JSON.stringify(Array.from((await zarr.get(arr, null)).data));
} catch (error) {
  result = String(error?.message ?? error);
}
// Rejections are reported after the microtasks that could still handle them.
await new Promise((resolve) => setTimeout(resolve, 100));
process.stdout.write(JSON.stringify({ result, unhandled }));
