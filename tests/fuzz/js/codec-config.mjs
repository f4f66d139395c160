// The codec-configuration fuzzer: the codec classes built from random data
// types (names, object forms, structs, strings, raw bytes, hostile values),
// configurations (valid members with random values, unknown members,
// getters that throw, Proxies) and shapes, then asked to decode random
// bytes and encode them back (seeded). Every outcome must be a success or
// the package's ZarrCodecError with a code; where the configuration is one
// the specs allow, a decode must equal an independent reference written
// from the specs (tests/js/support/reference.js: byte swaps, packbits one
// bit at a time), and encode must give the input back. wasm memory stays
// bounded and no C++ instance is left behind.
//
//   node tests/fuzz/js/codec-config.mjs [seconds] [seed]
import { fileURLToPath } from "node:url";
import { BytesCodec, diagnostics, NumcodecsPackBitsCodec, PackBitsCodec, ready, ZarrCodecError } from "../../../js/index.js";
import { packBitsDecodeReference, swapGroups } from "../../js/support/reference.js";
import { Random } from "./random.mjs";
import { classify, protoKeys } from "./outcomes.mjs";

// Plain types: [name, bits, container bytes, signed, kind].
const PLAIN = [
  ["bool", 1, 1, false, "bool"], ["int2", 2, 1, true, "int"], ["uint2", 2, 1, false, "int"],
  ["int4", 4, 1, true, "int"], ["uint4", 4, 1, false, "int"], ["int8", 8, 1, true, "int"], ["uint8", 8, 1, false, "int"],
  ["int16", 16, 2, true, "int"], ["uint16", 16, 2, false, "int"], ["int32", 32, 4, true, "int"], ["uint32", 32, 4, false, "int"],
  ["int64", 64, 8, true, "int"], ["uint64", 64, 8, false, "int"], ["float32", 32, 4, false, "float"], ["float64", 64, 8, false, "float"],
  ["float16", 16, 2, false, "float"], ["bfloat16", 16, 2, false, "float"], ["float8_e4m3", 8, 1, false, "float"],
  ["float4_e2m1fn", 4, 1, false, "float"], ["complex64", 32, 4, false, "complex"], ["complex_float8_e5m2", 8, 1, false, "complex"],
];
const HOSTILE_TYPES = [
  "int3", "r12", "string", "", "x".repeat(300), "__proto__", "constructor", 7, null, [], { name: 5 }, { name: "int8", units: 1 },
  { name: "struct", configuration: { fields: [] } }, { name: "fixed_length_utf32", configuration: { length_bytes: 6 } },
  { name: "numpy.datetime64", configuration: { unit: "fortnight", scale_factor: 1 } },
];
const HOSTILE_VALUES = [
  undefined, null, -1, 0, 1, 3, 7, 8, 15, 16, 63, 64, 1.5, NaN, Infinity, 2 ** 53, "3", "big", "little", "none",
  "first_byte", "last_byte", "middle", true, {}, [], Symbol("x"), 10n,
];

function randomType(r) {
  const kind = r.int(10);
  if (kind < 6) {
    const [name, bits, bytes, signed, cls] = r.pick(PLAIN);
    return { spec: r.int(4) === 0 ? { name } : name, plain: { name, bits, bytes, signed, cls } };
  }
  if (kind < 8) {
    // A struct of plain fields, the fuzzer knowing its layout.
    const fields = Array.from({ length: 1 + r.int(4) }, (_, i) => {
      const [name, bits, bytes, signed, cls] = r.pick(PLAIN.filter((t) => t[4] !== "float" || t[2] >= 4));
      return {
        name: `f${i}`, type: name, bytes: cls === "complex" ? 2 * bytes : bytes, width: cls === "complex" ? bytes : bits < 8 ? 1 : bytes,
        bits, signed, cls,
      };
    });
    return {
      spec: { name: "struct", configuration: { fields: fields.map((f) => ({ name: f.name, data_type: f.type })) } },
      struct: fields,
    };
  }
  if (kind < 9) {
    const n = 4 * (1 + r.int(4));
    return { spec: { name: "fixed_length_utf32", configuration: { length_bytes: n } }, utf32: n / 4 };
  }
  return { spec: r.pick(HOSTILE_TYPES) };
}

function hostileObject(r, value) {
  if (r.int(16) !== 0) return value;
  if (r.int(2) === 0) {
    return new Proxy(value ?? {}, { get: () => { throw new TypeError("trap"); }, ownKeys: () => { throw new RangeError("trap"); } });
  }
  const o = { ...(value ?? {}) };
  Object.defineProperty(o, "endian", { enumerable: true, get: () => { throw new Error("getter"); } });
  return o;
}

// Mostly valid values (so decodes run and are checked), sometimes hostile.
function memberValue(r, member, t) {
  if (r.int(4) === 0) return r.pick(HOSTILE_VALUES);
  const bits = t.plain?.bits ?? 8;
  switch (member) {
    case "endian": return r.pick(["big", "little"]);
    case "padding_encoding": return r.pick(["none", "first_byte", "last_byte", undefined]);
    case "first_bit": return r.int(Math.max(1, bits / 2));
    case "last_bit": return bits / 2 + r.int(Math.max(1, bits / 2)) - (bits === 1 ? 0.5 : 0);
    default: return undefined;
  }
}

function randomConfig(r, codec, t) {
  const members = codec === "bytes" ? ["endian"] : codec === "packbits" ? ["padding_encoding", "first_bit", "last_bit"] : ["id"];
  const config = {};
  for (const m of members) if (r.int(3)) config[m] = memberValue(r, m, t);
  if (r.int(10) === 0) config[r.pick(["endianness", "bits", "__proto__"])] = 1;
  if (r.int(12) === 0) return r.pick([undefined, null, "big", 5, []]);
  return hostileObject(r, config);
}

function randomShape(r) {
  if (r.int(20) === 0) return r.pick([[-1], [1.5], [NaN], [2 ** 53], "4", [["4"]], Array(70).fill(1), [2 ** 40, 2 ** 20]]);
  return Array.from({ length: r.int(3) }, () => r.int(40));
}

/** A sub-byte value's byte as the types' pages read it: the low bits, sign- or zero-extended. */
function lowBits(b, bits, signed) {
  const v = b & ((1 << bits) - 1);
  return signed && v >> (bits - 1) ? (v | (0xff << bits)) & 0xff : v;
}

/**
 * Struct bytes (either layout: one-byte fields sit at the same offsets)
 * with each one-byte field as its type reads (sub-byte: the low bits
 * extended) and, with `bools`, as a writer stores it (bool: 0 or 1).
 */
function structValues(t, bytes, n, bools) {
  const out = bytes.slice();
  const size = t.struct.reduce((a, f) => a + f.bytes, 0);
  for (let r = 0; r < n; r++) {
    let at = r * size;
    for (const f of t.struct) {
      if (f.cls === "int" && f.bits < 8) out[at] = lowBits(out[at], f.bits, f.signed);
      if (bools && f.cls === "bool") out[at] = out[at] !== 0 ? 1 : 0;
      at += f.bytes;
    }
  }
  return out;
}

// The reference decode of a valid configuration, or undefined where the
// fuzzer has none (widened floats are checked by the native tests).
function reference(codec, t, config, shape, bytes) {
  const n = shape.reduce((a, b) => a * b, 1);
  const big = config?.endian === "big";
  if (codec === "bytes" && t.plain) {
    const { bytes: w, cls, bits, signed } = t.plain;
    if (cls === "bool" || (cls === "float" && bits >= 8) || (cls === "int" && bits >= 8) || cls === "complex") {
      return big && w > 1 ? swapGroups(bytes, w) : bytes;
    }
    if (cls === "int") {
      // One byte per value, the low bits sign- or zero-extended.
      return Uint8Array.from(bytes, (b) => lowBits(b, bits, signed));
    }
    if (cls === "float") return Uint8Array.from(bytes, (b) => b & ((1 << bits) - 1)); // bit patterns
  }
  if (codec === "bytes" && t.struct && (big || config?.endian === "little")) {
    const out = structValues(t, bytes, n, false);
    const size = t.struct.reduce((a, f) => a + f.bytes, 0);
    for (let r = 0; big && r < n; r++) {
      let at = r * size;
      for (const f of t.struct) {
        if (f.width > 1) out.set(swapGroups(bytes.subarray(at, at + f.bytes), f.width), at);
        at += f.bytes;
      }
    }
    return out;
  }
  if (codec === "packbits" && t.plain && t.plain.cls !== "float" && t.plain.cls !== "complex" && typeof config === "object" && config) {
    const first = config.first_bit ?? 0;
    const last = config.last_bit ?? t.plain.bits - 1;
    const padding = config.padding_encoding ?? "none";
    if (padding !== "none") return undefined;
    const layout = { containerBytes: t.plain.bytes, firstBit: first, bits: last - first + 1, signed: t.plain.signed, isBool: t.plain.cls === "bool" };
    return packBitsDecodeReference(layout, bytes, n);
  }
  return undefined;
}

export async function fuzzCodecConfigurations({ seconds = 10, seed = 1, log = () => {} } = {}) {
  await ready();
  const r = new Random(seed);
  const d = diagnostics();
  const counts = { built: 0, refused: 0, decoded: 0, "decode refused": 0, "checked against the reference": 0, "encoded back": 0 };
  const proto = protoKeys();
  const live = d.liveInstances();
  const end = Date.now() + seconds * 1000;
  let runs = 0;
  while (Date.now() < end) {
    runs++;
    const codecName = r.pick(["bytes", "packbits", "numcodecs.packbits"]);
    const t = randomType(r);
    const config = randomConfig(r, codecName, t);
    const shape = randomShape(r);
    const Codec = { bytes: BytesCodec, packbits: PackBitsCodec, "numcodecs.packbits": NumcodecsPackBitsCodec }[codecName];
    let codec;
    try {
      codec = Codec.fromConfig(config, hostileObject(r, { dataType: t.spec, shape }));
      counts.built++;
    } catch (error) {
      if (classify(error) !== "package error") throw new Error(`codec fuzzer (seed ${seed}, run ${runs}): ${codecName} ${String(t.spec?.name ?? t.spec)} threw ${error?.stack}`);
      counts.refused++;
      continue;
    }
    try {
      const n = Array.isArray(shape) ? shape.reduce((a, b) => a * b, 1) : 0;
      const encodedSize = codecName === "numcodecs.packbits" ? 1 + Math.ceil(n / 8) : codec.computeEncodedSize?.(codec.computeEncodedSize ? guessDecodedBytes(codec, t, n) : 0);
      const length = r.int(8) === 0 ? Math.max(0, (encodedSize ?? 0) + r.pick([-1, 1])) : encodedSize ?? 0;
      const input = r.bytes(length);
      let decoded;
      try {
        decoded = codecName === "numcodecs.packbits" ? codec.decode({ data: input }) : codec.decode(input);
        counts.decoded++;
      } catch (error) {
        if (!(error instanceof ZarrCodecError)) throw error;
        counts["decode refused"]++;
        continue;
      }
      const want = length === encodedSize ? reference(codecName, t, config, shape, input) : undefined;
      const data = decoded.data;
      const got = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      if (want !== undefined) {
        if (Buffer.compare(Buffer.from(got), Buffer.from(want)) !== 0) {
          throw new Error(`codec fuzzer (seed ${seed}, run ${runs}): ${codecName} ${JSON.stringify(t.spec)} ${JSON.stringify(config)} [${shape}] decoded differently from the reference`);
        }
        counts["checked against the reference"]++;
        // Encoding the decoded values gives the bytes back (the reference's
        // values are the canonical stored form, except bool's bytes, sub-
        // byte high bits and packbits' unused bits; a struct's one-byte
        // fields are written canonical).
        if (codecName === "bytes" && (t.struct || (t.plain && t.plain.bits >= 8 && t.plain.cls !== "bool"))) {
          const back = codec.encode(decoded);
          const canonical = t.struct ? structValues(t, input, shape.reduce((a, b) => a * b, 1), true) : input;
          if (Buffer.compare(Buffer.from(back), Buffer.from(canonical)) !== 0) {
            throw new Error(`codec fuzzer (seed ${seed}, run ${runs}): ${codecName} ${JSON.stringify(t.spec)} did not encode back`);
          }
          counts["encoded back"]++;
        }
      }
    } catch (error) {
      if (!(error instanceof ZarrCodecError)) throw new Error(`codec fuzzer (seed ${seed}, run ${runs}): ${error?.stack}`);
    } finally {
      codec.dispose();
    }
    if (protoKeys() !== proto) throw new Error(`codec fuzzer (seed ${seed}, run ${runs}): Object.prototype changed`);
    if (runs % 5000 === 0) log(`${runs} runs`);
  }
  const wasmMemoryBytes = d.wasmMemoryBytes();
  if (wasmMemoryBytes > 64 * 1024 * 1024) throw new Error(`codec fuzzer: wasm memory grew to ${wasmMemoryBytes} bytes`);
  if (d.liveInstances() > live + 64) throw new Error(`codec fuzzer: ${d.liveInstances() - live} C++ instances left behind`);
  return { runs, counts, wasmMemoryBytes };
}

// The decoded bytes of n elements (computeEncodedSize takes those).
function guessDecodedBytes(codec, t, n) {
  if (t.struct) return n * t.struct.reduce((a, f) => a + f.bytes, 0);
  if (t.utf32) return n * 4 * t.utf32;
  if (t.plain) return n * t.plain.bytes * (t.plain.cls === "complex" ? 2 : 1);
  return n;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [seconds = "60", seed = String(Date.now() % 100000)] = process.argv.slice(2);
  const result = await fuzzCodecConfigurations({ seconds: Number(seconds), seed: Number(seed), log: (m) => process.stderr.write(`\r${m}`) });
  console.log(`\ncodec configuration fuzzer: ${result.runs} runs in ${seconds} s (seed ${seed}); wasm memory ${result.wasmMemoryBytes} bytes`);
  for (const [outcome, n] of Object.entries(result.counts)) console.log(`  ${outcome}: ${n}`);
}
