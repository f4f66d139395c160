// The wasm instance stays whole after any number of failures: 100,000 of
// each kind a caller can provoke (a configuration whose getter throws, a
// Proxy, misuse of the deprecated low-level API, chunks of the wrong
// length, unknown types, wrong containers, hostile N5 blocks, structFields
// of a wrong result), then every codec decodes correctly, wasm memory has
// not grown and no C++ instance is left behind. (0.2.0 trapped with
// "memory access out of bounds" after ~33,000 such throws: each unwound
// through wasm frames and leaked them.)
import { beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import {
  BytesCodec, diagnostics, N5DefaultCodec, nativeCodecs, PackBitsCodec, ready, register, structFields, ZarrCodecError,
} from "../../../js/index.js";

const N = 100000;
let d;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  d = diagnostics();
});

const KINDS = {
  "a configuration whose getter throws": () => {
    const config = {};
    Object.defineProperty(config, "endian", { enumerable: true, get: () => { throw new Error("no"); } });
    return () => BytesCodec.fromConfig(config, { dataType: "int16", shape: [4] });
  },
  "a Proxy configuration that throws on every trap": () => {
    const config = new Proxy({}, { ownKeys: () => { throw new TypeError("trap"); }, get: () => { throw new TypeError("trap"); } });
    return () => PackBitsCodec.fromConfig(config, { dataType: "uint16", shape: [4] });
  },
  "a Proxy meta": () => {
    const meta = new Proxy({ dataType: "int8", shape: [2] }, { get: () => { throw new RangeError("trap"); } });
    return () => BytesCodec.fromConfig({}, meta);
  },
  "the deprecated low-level API with a null output": () => {
    const { PackBitsCodec: Low } = nativeCodecs();
    const low = new Low("uint16", { last_bit: 11 }, [2], "native");
    const input = new Uint8Array([0xbc, 0x3a, 0x12]);
    return () => {
      const outcome = low.decode(input, null);
      if (outcome.code === "OK") throw new Error("decoded into null");
      throw new ZarrCodecError(outcome.code, outcome.message);
    };
  },
  "chunks of the wrong length": () => {
    const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType: "int32", shape: [100] });
    const short = new Uint8Array(399);
    return () => codec.decode(short);
  },
  "unknown data types": () => () => BytesCodec.fromConfig({ endian: "big" }, { dataType: "int3", shape: [1] }),
  "encode with the wrong container": () => {
    const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [4] });
    const floats = { data: new Float32Array(4) };
    return () => codec.encode(floats);
  },
  "hostile N5 blocks": () => {
    const codec = new N5DefaultCodec(
      { codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, { name: "bytes", configuration: { endian: "big" } }] },
      { dataType: "uint16", shape: [2, 2] },
    );
    // A header of [3, 2] (cropped to the chunk) whose payload is a byte short.
    const short = new Uint8Array([0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 2, ...new Uint8Array(11)]);
    // decode is async: its rejection is caught below like a throw.
    return () => codec.decode(short);
  },
  "structFields of a result that is no struct read": () => {
    const arr = { store: {}, path: "/x" };
    return () => structFields({ data: new Uint8Array(4), shape: [4], stride: [1] }, arr);
  },
};

// Every codec kind, decoded correctly (literal bytes worked by hand).
function decodesCorrectly() {
  const be = BytesCodec.fromConfig({ endian: "big" }, { dataType: "int16", shape: [2] });
  expect(Array.from(be.decode(new Uint8Array([1, 2, 0xff, 0xfe])).data)).toEqual([258, -2]);
  const pb = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
  expect(Array.from(pb.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data)).toEqual([0xabc, 0x123]);
  be.dispose();
  pb.dispose();
}

test.each(Object.keys(KINDS))("%s, 100,000 times", async (kind) => {
  decodesCorrectly();
  const fail = KINDS[kind]();
  const memory = d.wasmMemoryBytes();
  const live = d.liveInstances();
  let refused = 0;
  for (let i = 0; i < N; i++) {
    try {
      const result = fail();
      if (result && typeof result.then === "function") await result;
    } catch (error) {
      // The package's error, never one from inside it.
      if (!(error instanceof ZarrCodecError)) throw error;
      refused++;
    }
  }
  expect(refused).toBe(N);
  decodesCorrectly();
  expect(d.wasmMemoryBytes()).toBe(memory);
  expect(d.liveInstances()).toBeLessThanOrEqual(live + 1); // the kind's own codec
}, 120000);
