// Wasm memory growing between calls and in the middle of a streamed call:
// results stay right, because no view of wasm memory outlives a step of a
// call (the C++ streaming reaches the TypedArrays through bindings/js_io.h,
// which reads HEAPU8 afresh for every block).
import { beforeAll, expect, test } from "@jest/globals";
import { BytesCodec, PackBitsCodec, ready } from "../../../js/index.js";
import { wasm } from "../../../js/wasm/load.js";
import { packBitsDecodeReference, randomBytes } from "../support/reference.js";

beforeAll(() => ready());

// Makes wasm memory grow: embind copies a string argument into wasm
// memory, so one larger than the whole heap needs more pages.
function grow(m) {
  const before = m.HEAPU8.buffer;
  m.dataTypeInfo("x".repeat(m.HEAPU8.length));
  expect(m.HEAPU8.buffer).not.toBe(before);
}

test("growth between calls", () => {
  const m = wasm();
  const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [50000] });
  const packed = randomBytes(75000, 1);
  const want = packBitsDecodeReference({ containerBytes: 2, firstBit: 0, bits: 12, signed: false }, packed, 50000);
  expect(new Uint8Array(codec.decode(packed).data.buffer)).toEqual(want);
  grow(m);
  expect(new Uint8Array(codec.decode(packed).data.buffer)).toEqual(want);
  const swap = BytesCodec.fromConfig({ endian: "big" }, { dataType: "int32", shape: [2] });
  expect(swap.decode(new Uint8Array([0, 0, 1, 0, 0xff, 0xff, 0xff, 0xfe])).data).toEqual(new Int32Array([256, -2]));
});

test("growth during a call, between two blocks of one decode", () => {
  const m = wasm();
  const io = m.zcwIo;
  const buffers = new Set();
  let input;
  let reads = 0;
  // The streaming code fetches the input slot once per block: the second
  // fetch grows memory first, so the second block copies into a new heap.
  // (The call protocol, js/wasm/io.js, clears the slot after the call.)
  Object.defineProperty(io.inputs, 0, {
    configurable: true,
    get() {
      buffers.add(m.HEAPU8.buffer);
      if (++reads === 2) grow(m);
      buffers.add(m.HEAPU8.buffer);
      return input;
    },
    set(v) {
      input = v;
    },
  });
  try {
    const codec = PackBitsCodec.fromConfig({}, { dataType: "bool", shape: [300000] }); // 5 blocks
    const packed = randomBytes(37500, 2);
    const { data } = codec.decode(packed);
    expect(reads).toBe(5);
    expect(buffers.size).toBe(2); // the heap's buffer changed mid-decode
    const want = packBitsDecodeReference({ containerBytes: 1, firstBit: 0, bits: 1, signed: false }, packed, 300000);
    expect(data).toEqual(want);
  } finally {
    io.inputs.length = 0;
  }
});
