// Where the engine lacks WebAssembly SIMD, ready() rejects with an error
// that says so (instead of a compile failure), and can be retried.
import { afterEach, expect, test } from "@jest/globals";

const realValidate = WebAssembly.validate;
afterEach(() => {
  WebAssembly.validate = realValidate;
});

test("ready() rejects with NO_WASM_SIMD, and loads once SIMD is there", async () => {
  // Jest gives this file fresh modules: nothing is loaded yet.
  const { ready, hasWasmSimd, PackBitsCodec, ZarrCodecError } = await import("../../../js/index.js");
  WebAssembly.validate = () => false;
  expect(hasWasmSimd()).toBe(false);
  const failure = ready();
  await expect(failure).rejects.toThrow(ZarrCodecError);
  await expect(failure).rejects.toMatchObject({
    code: "NO_WASM_SIMD",
    message: expect.stringContaining("needs WebAssembly SIMD, which this JavaScript engine lacks (it needs Node >= 16.4, Chrome/Edge 91+, Firefox 89+ or Safari 16.4+)"),
  });
  expect(() => PackBitsCodec.fromConfig({}, { dataType: "bool", shape: [8] })).toThrow(/await ready\(\)/);

  WebAssembly.validate = realValidate;
  await expect(ready()).resolves.toBeUndefined();
  const codec = PackBitsCodec.fromConfig({}, { dataType: "bool", shape: [8] });
  expect([...codec.decode(new Uint8Array([0x81])).data]).toEqual([1, 0, 0, 0, 0, 0, 0, 1]);
});
