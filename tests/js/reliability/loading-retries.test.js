// Loading under contention and failure, each in a module graph of its own
// (Jest loads the package afresh for each test file): a registry whose
// first read came before the wasm was ready reads once it is (0.2.0 kept
// the rejected loader forever), and two ready() calls with different
// sources at once: the second tries its own source when the first fails
// (0.2.0 gave it the first one's failure).
import { expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as slim from "../../../js/slim.js";

const require = createRequire(import.meta.url);
const wasmBytes = readFileSync(require.resolve("zarr-codecs-wasm/wasm"));

test("a read before the wasm is ready fails with NOT_READY; after ready({ wasm }) the same registry reads", async () => {
  const registry = slim.register(new Map(zarr.registry));
  const load = registry.get("packbits");
  await expect(load()).rejects.toMatchObject({ code: "NOT_READY" });
  // Two concurrent calls: one with a source that fails, one with the real file.
  const [bad, good] = await Promise.allSettled([
    slim.ready({ wasm: new Uint8Array([0, 97, 115, 109, 9]) }),
    slim.ready({ wasm: wasmBytes }),
  ]);
  expect(bad.status).toBe("rejected");
  expect(bad.reason.code).toBe("WASM_LOAD_FAILED");
  expect(good.status).toBe("fulfilled");
  const PackBits = await load();
  const codec = PackBits.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  expect(Array.from(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data)).toEqual([0xabc, 0x123]);
});
