// Wasm memory growing between calls and in the middle of a streamed call:
// results stay right, because no view of the wasm heap outlives a call into
// wasm (heap.js reads HEAPU8 afresh for every block).
import { beforeAll, expect, test } from "@jest/globals";
import { BytesCodec, PackBitsCodec, ready } from "../../js/index.js";
import { wasm } from "../../js/module.js";
import { packBitsDecodeReference, randomBytes } from "./reference.js";

beforeAll(() => ready());

test("growth between calls", () => {
  const m = wasm();
  const codec = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [50000] });
  const packed = randomBytes(75000, 1);
  const want = packBitsDecodeReference({ containerBytes: 2, firstBit: 0, bits: 12, signed: false }, packed, 50000);
  expect(new Uint8Array(codec.decode(packed).data.buffer)).toEqual(want);
  const before = m.HEAPU8.buffer;
  const block = m._malloc(m.HEAPU8.length); // more than is free: it must grow
  expect(m.HEAPU8.buffer).not.toBe(before); // memory grew: old views are stale
  try {
    expect(new Uint8Array(codec.decode(packed).data.buffer)).toEqual(want);
    const swap = BytesCodec.fromConfig({ endian: "big" }, { dataType: "int32", shape: [2] });
    expect(swap.decode(new Uint8Array([0, 0, 1, 0, 0xff, 0xff, 0xff, 0xfe])).data).toEqual(new Int32Array([256, -2]));
  } finally {
    m._free(block);
  }
});

test("growth during a call, between two blocks of one decode", () => {
  const m = wasm();
  const kernel = m._zcw_packbits_decode;
  const buffers = new Set();
  let calls = 0;
  const grown = [];
  // The codec takes the kernel when it is made, so wrap it first: the second
  // block's kernel call grows memory before running.
  m._zcw_packbits_decode = (...args) => {
    buffers.add(m.HEAPU8.buffer);
    // More than the whole heap holds now: it must grow.
    if (++calls === 2) grown.push(m._malloc(m.HEAPU8.length));
    const result = kernel(...args);
    buffers.add(m.HEAPU8.buffer);
    return result;
  };
  try {
    const codec = PackBitsCodec.fromConfig({}, { dataType: "bool", shape: [300000] }); // 5 blocks
    const packed = randomBytes(37500, 2);
    const { data } = codec.decode(packed);
    expect(calls).toBe(5);
    expect(buffers.size).toBe(2); // the heap's buffer changed mid-decode
    const want = packBitsDecodeReference({ containerBytes: 1, firstBit: 0, bits: 1, signed: false }, packed, 300000);
    expect(data).toEqual(want);
  } finally {
    m._zcw_packbits_decode = kernel;
    grown.forEach((p) => m._free(p));
  }
});
