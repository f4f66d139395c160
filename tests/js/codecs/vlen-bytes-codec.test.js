// The vlen-bytes codec used directly: chunks from the codec page's layout
// (hand-worked, and seeded random ones against an encoder and decoder
// written from the page), items as views of one fresh buffer (never the
// input's), hostile chunks each refused with the package's error naming
// where, encode refusing anything but Uint8Arrays, and the instance usable
// after many failures.
import { beforeAll, describe, expect, test } from "@jest/globals";
import vm from "node:vm";
import { ready, VlenBytesCodec, ZarrCodecError } from "../../../js/index.js";
import { expectCodecError } from "../support/expect-error.js";
import { vlenBytesDecodeReference, vlenBytesEncodeReference } from "../support/vlen-bytes-reference.js";

beforeAll(() => ready());

const codec = (shape, dataType = "variable_length_bytes") => VlenBytesCodec.fromConfig(undefined, { dataType, shape });
const text = (s) => new TextEncoder().encode(s);
const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

// A seeded generator (mulberry32), so a failure replays.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe("decode", () => {
  test("numcodecs' docstring example, byte by byte", () => {
    // VLenBytes().encode([b'foo', b'bar', b'baz'])
    const chunk = Uint8Array.from(Buffer.from("03000000" + "03000000666f6f" + "03000000626172" + "0300000062617a", "hex"));
    const { data, shape, stride } = codec([3]).decode(chunk);
    expect(data.map((d) => new TextDecoder().decode(d))).toEqual(["foo", "bar", "baz"]);
    expect(data.every((d) => d instanceof Uint8Array)).toBe(true);
    expect(shape).toEqual([3]);
    expect(stride).toEqual([1]);
  });

  test("2-d chunks in C order, empty items, NULs and every byte, scalars and empty chunks", () => {
    const items = [new Uint8Array(0), Uint8Array.of(0, 0), Uint8Array.of(0xff, 0, 0x80), new Uint8Array(0), text("é"), Uint8Array.of(0xc3)];
    const out = codec([2, 3]).decode(vlenBytesEncodeReference(items));
    expect(out.data.map(hex)).toEqual(items.map(hex));
    expect(out.shape).toEqual([2, 3]);
    expect(out.stride).toEqual([3, 1]);
    expect(codec([]).decode(vlenBytesEncodeReference([text("one")])).data.map(hex)).toEqual([hex(text("one"))]);
    expect(codec([0, 4]).decode(Uint8Array.of(0, 0, 0, 0)).data).toEqual([]);
  });

  test("seeded random chunks agree with the page's layout, both ways, across the 64 KiB blocks", () => {
    const next = random(24);
    for (const n of [1, 7, 300, 3000]) {
      const items = Array.from({ length: n }, () => {
        const pick = next();
        const length = pick < 0.6 ? Math.floor(next() * 9) : pick < 0.97 ? Math.floor(next() * 400) : Math.floor(next() * 70000);
        return Uint8Array.from({ length }, () => Math.floor(next() * 256));
      });
      const c = codec([n]);
      const encoded = c.encode({ data: items, shape: [n], stride: [1] });
      expect(hex(encoded)).toBe(hex(vlenBytesEncodeReference(items)));
      expect(c.decode(encoded).data.map(hex)).toEqual(vlenBytesDecodeReference(encoded, n).map(hex));
    }
  });

  test("items are views of one fresh buffer holding the items alone: never the input's, never wasm memory", () => {
    const items = [text("ab"), text(""), text("cde")];
    const input = vlenBytesEncodeReference(items);
    const before = hex(input);
    const { data } = codec([3]).decode(input);
    const buffer = data[0].buffer;
    expect(data.every((d) => d.buffer === buffer)).toBe(true);
    expect(buffer).not.toBe(input.buffer);
    expect(buffer.byteLength).toBe(5); // "ab" + "cde"
    expect([data[0].byteOffset, data[2].byteOffset]).toEqual([0, 2]);
    data[0][0] = 0x7a; // a user's change touches neither the input nor another decode
    expect(hex(input)).toBe(before);
    expect(hex(codec([3]).decode(input).data[0])).toBe(hex(text("ab")));
    // An input that is a view into a larger buffer (a shard, a cache).
    const padded = new Uint8Array(input.length + 7);
    padded.set(input, 3);
    expect(codec([3]).decode(padded.subarray(3, 3 + input.length)).data.map(hex)).toEqual(items.map(hex));
    expect(codec([3]).decode(input.buffer.slice(0)).data.map(hex)).toEqual(items.map(hex)); // an ArrayBuffer
  });
});

describe("hostile chunks: the package's error, naming where", () => {
  const good = vlenBytesEncodeReference([text("ab"), text("cde")]); // 17 bytes
  const withByte = (at, value) => {
    const out = good.slice();
    out[at] = value;
    return out;
  };
  const CASES = [
    ["an empty chunk", new Uint8Array(0), "vlen-bytes: chunk shape [2]: a chunk starts with its 4-byte item count, got 0 bytes"],
    ["a truncated count", good.subarray(0, 3), "vlen-bytes: chunk shape [2]: a chunk starts with its 4-byte item count, got 3 bytes"],
    ["a count of 3 for 2 elements", withByte(0, 3), "vlen-bytes: chunk shape [2]: the chunk's item count is 3, but the chunk holds 2 elements"],
    ["a count of 2^32 - 1", Uint8Array.of(0xff, 0xff, 0xff, 0xff), "vlen-bytes: chunk shape [2]: the chunk's item count is 4294967295, but the chunk holds 2 elements"],
    ["a cut item length", good.subarray(0, 10), "vlen-bytes: chunk shape [2]: 2 items need at least 12 bytes (the count and a 4-byte length per item), got 10"],
    ["an item past the end", good.subarray(0, 16), "vlen-bytes: chunk shape [2]: item 1 is 3 bytes long (its length is at byte 10), more than the 2 bytes left in the 16-byte chunk"],
    ["an item over the next one's length", withByte(4, 9), "vlen-bytes: chunk shape [2]: item 0 is 9 bytes long (its length is at byte 4), more than the 5 bytes left in the 17-byte chunk beside the length of the item after it"],
    ["a length of 2^32 - 1", Uint8Array.from([...good.subarray(0, 4), 0xff, 0xff, 0xff, 0xff, ...good.subarray(8)]), /^vlen-bytes: chunk shape \[2\]: item 0 is 4294967295 bytes long/],
    ["a byte after the last item", Uint8Array.from([...good, 0]), "vlen-bytes: chunk shape [2]: 1 byte follows the last item (its items end at byte 17 of the 18-byte chunk)"],
  ];
  test.each(CASES)("%s", (_what, bytes, message) => {
    expectCodecError(() => codec([2]).decode(bytes), "LENGTH_MISMATCH", message);
  });

  test("20,000 refusals leave the codec and the module usable", () => {
    const c = codec([2]);
    for (let i = 0; i < 20000; i++) {
      try {
        c.decode(CASES[i % CASES.length][1]);
        throw new Error("accepted");
      } catch (error) {
        if (!(error instanceof ZarrCodecError)) throw error;
      }
    }
    expect(c.decode(good).data.map(hex)).toEqual([hex(text("ab")), hex(text("cde"))]);
  });

  test("seeded mutations of chunks: accepted exactly where the page's layout holds, with its items; refused with LENGTH_MISMATCH otherwise", () => {
    const next = random(7);
    const c = codec([5]);
    const base = vlenBytesEncodeReference([text("one"), text(""), Uint8Array.of(0, 1, 2, 3, 4, 5, 6, 7), text("x"), text("fifth")]);
    for (let round = 0; round < 3000; round++) {
      let bytes = base.slice();
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--) bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
      if (next() < 0.3) bytes = bytes.subarray(0, Math.floor(next() * (bytes.length + 1)));
      const want = vlenBytesDecodeReference(bytes, 5);
      let got;
      try {
        got = c.decode(bytes).data.map(hex);
      } catch (error) {
        expect([error instanceof ZarrCodecError, error.code]).toEqual([true, "LENGTH_MISMATCH"]);
        got = null;
      }
      expect(got).toEqual(want && want.map(hex));
    }
  });

  test("a chunk shape whose count no u32 holds is refused when the codec is made", () => {
    expectCodecError(() => codec([65536, 65536]), "INVALID_SHAPE",
      "vlen-bytes: chunk shape [65536, 65536] has 4294967296 elements, more than the 4294967295 a chunk's u32 item count can hold");
  });
});

describe("encode", () => {
  test("writes the page's layout, leaves the items as they were, and reads back", () => {
    const items = [text("x"), new Uint8Array(0), Uint8Array.of(0, 255, 0)];
    const copies = items.map(hex);
    const c = codec([3]);
    const encoded = c.encode({ data: items, shape: [3], stride: [1] });
    expect(hex(encoded)).toBe("03000000" + "0100000078" + "00000000" + "0300000000ff00");
    expect(items.map(hex)).toEqual(copies);
    expect(c.decode(encoded).data.map(hex)).toEqual(copies);
  });

  test("Uint8Arrays of another realm (a worker's, a vm context's) and Node Buffers are bytes too", () => {
    const foreign = vm.runInNewContext("new Uint8Array([7, 8])");
    expect(foreign instanceof Uint8Array).toBe(false);
    const encoded = codec([2]).encode({ data: [foreign, Buffer.from("hi")] });
    expect(hex(encoded)).toBe("02000000" + "020000000708" + "020000006869");
  });

  const c = () => codec([2]);
  const CASES = [
    ["no chunk", () => c().encode(null), "INVALID_INPUT", "vlen-bytes: encode needs chunk.data as an Array of Uint8Array (one per element), got undefined"],
    ["a TypedArray as data", () => c().encode({ data: new Uint8Array(2) }), "INVALID_INPUT", "vlen-bytes: encode needs chunk.data as an Array of Uint8Array (one per element), got a Uint8Array"],
    ["too few items", () => c().encode({ data: [text("a")] }), "INVALID_INPUT", "vlen-bytes: chunk shape [2] needs 2 items, got an Array of length 1"],
    ["a string", () => c().encode({ data: [text("a"), "b"] }), "INVALID_INPUT", 'vlen-bytes: element 1 must be a Uint8Array, got "b"'],
    ["a hole", () => c().encode({ data: new Array(2) }), "INVALID_INPUT", "vlen-bytes: element 0 must be a Uint8Array, got undefined"],
    ["null", () => c().encode({ data: [null, text("a")] }), "INVALID_INPUT", "vlen-bytes: element 0 must be a Uint8Array, got null"],
    ["an Int8Array", () => c().encode({ data: [new Int8Array(1), text("a")] }), "INVALID_INPUT", "vlen-bytes: element 0 must be a Uint8Array, got an Int8Array"],
    ["a Uint8ClampedArray", () => c().encode({ data: [text("a"), new Uint8ClampedArray(1)] }), "INVALID_INPUT", "vlen-bytes: element 1 must be a Uint8Array, got a Uint8ClampedArray"],
    ["an ArrayBuffer", () => c().encode({ data: [new ArrayBuffer(1), text("a")] }), "INVALID_INPUT", "vlen-bytes: element 0 must be a Uint8Array, got an ArrayBuffer"],
    ["a getter that throws", () => c().encode({ get data() { throw new Error("nope"); } }), "INVALID_INPUT", 'vlen-bytes: reading chunk.data failed ("nope")'],
    ["an element that throws", () => c().encode({ data: Object.defineProperty([0, 1], 0, { get() { throw new Error("boom"); } }) }), "INVALID_INPUT", 'vlen-bytes: reading element 0 failed ("boom")'],
  ];
  test.each(CASES)("refuses %s", (_what, call, code, message) => expectCodecError(call, code, message));
});

describe("construction", () => {
  test.each([
    ["variable_length_bytes"], ["bytes"], [{ name: "bytes" }], [{ name: "variable_length_bytes", configuration: {} }], ["v2:object"],
  ])("takes the data type %j", (dataType) => {
    const c = VlenBytesCodec.fromConfig({}, { data_type: dataType, shape: [1] }); // zarrita 0.5 and 0.6's meta
    expect(c.kind).toBe("array_to_bytes");
    c.dispose();
  });

  test.each([
    ["a fixed-size type", { dataType: "uint8", shape: [1] }, "UNSUPPORTED_DATA_TYPE", 'vlen-bytes: data type "uint8" is not variable-length bytes (expected "variable_length_bytes", its alias "bytes", or zarrita\'s "v2:object")'],
    ["strings", { dataType: "string", shape: [1] }, "UNSUPPORTED_DATA_TYPE", /data type "string" is not variable-length bytes/],
    ["bytes with a configuration", { dataType: { name: "bytes", configuration: { x: 1 } }, shape: [1] }, "UNSUPPORTED_DATA_TYPE", /data type an object is not variable-length bytes/],
    ["no shape", { dataType: "bytes" }, "INVALID_SHAPE", "vlen-bytes: meta.shape must be an array of non-negative integers, got undefined"],
  ])("refuses %s", (_what, meta, code, message) => {
    expectCodecError(() => VlenBytesCodec.fromConfig(undefined, meta), code, message);
  });

  test("refuses any configuration member", () => {
    expectCodecError(() => VlenBytesCodec.fromConfig({ endian: "little" }, { dataType: "bytes", shape: [1] }), "INVALID_CONFIGURATION",
      'vlen-bytes: unknown configuration member "endian" (vlen-bytes takes no configuration)');
  });

  test("dispose frees the instance; later calls throw DISPOSED", () => {
    const c = codec([1]);
    c.dispose();
    c.dispose();
    expectCodecError(() => c.decode(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 0)), "DISPOSED", /this codec was disposed/);
    expectCodecError(() => c.encode({ data: [text("a")] }), "DISPOSED", /this codec was disposed/);
  });
});
