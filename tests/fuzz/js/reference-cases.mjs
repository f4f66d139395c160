// Cases the metadata fuzzer builds with their outcome worked out here,
// from the types' pages, not by the code under test (issue 21):
//
//   strings        fixed_length_utf32 (v3) and "<U"/">U" (v2) arrays of
//                  astral code points, U+0000 and lone surrogates: stored
//                  chunks read, missing ones as the fill, writes stored as
//                  their code points or refused (too long, a surrogate)
//   records        struct (v3) and structured (v2) arrays written with
//                  leaves a plain array of their type would refuse (int4 9,
//                  a float4 code of 16, a UTF-32 unit past U+10FFFF, a
//                  surrogate); bools stored as 0/1
//   void fills     v2 "|V<n>" with base64 fills (and broken ones)
//   sharded        struct, raw_bytes and complex64 shards with missing
//                  inner chunks and shards, fills whose parts differ
//   huge missing   one missing chunk of 2^32 and more elements, read in a
//                  corner
//
// Each returns the outcome it met; one the reference did not expect is
// thrown with the case's description.
import { ZarrCodecError } from "../../../js/index.js";
import { crc32c } from "../../js/support/reference.js";

const encoder = new TextEncoder();

/**
 * A writable in-memory store over `files` with getRange (sharding), handing
 * out copies: zarrita 0.5 and 0.6 swap big-endian bytes in place (their
 * bytes codec, for types the package leaves to them), which must not change
 * the stored bytes for later reads or runs.
 */
export function memoryStore(files) {
  return {
    files,
    get: async (key) => files.get(key)?.slice(),
    getRange: async (key, range) => {
      const bytes = files.get(key);
      if (!bytes) return undefined;
      if (range.suffixLength !== undefined) return bytes.slice(bytes.length - range.suffixLength);
      return bytes.slice(range.offset, range.offset + range.length);
    },
    set: async (key, value) => {
      files.set(key, new Uint8Array(value));
    },
  };
}

const json = (doc) => encoder.encode(JSON.stringify(doc));
const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

function v3Meta({ shape, chunks, dataType, fill, codecs }) {
  return {
    zarr_format: 3, node_type: "array", shape, data_type: dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: chunks } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: fill, codecs, attributes: {},
  };
}

function v2Meta({ shape, chunks, dtype, fill }) {
  return { zarr_format: 2, shape, chunks, dtype, compressor: null, filters: null, order: "C", fill_value: fill, dimension_separator: "." };
}

/** The package's error code of a failure (through zarrita's wrappers), or "other". */
function codeOf(error) {
  for (let e = error, depth = 0; e && depth < 6; e = e.cause, depth++) {
    if (e instanceof ZarrCodecError) return e.code;
  }
  return "other";
}

class Unexpected extends Error {}
function expectThat(ok, what) {
  if (!ok) throw new Unexpected(what);
}

/** Runs `action`; the error code it failed with, or undefined. */
async function failureOf(action) {
  try {
    await action();
    return undefined;
  } catch (error) {
    if (error instanceof Unexpected) throw error;
    const code = codeOf(error);
    if (code === "other") throw error; // classified by the caller
    return code;
  }
}

// ---- UTF-32, from the fixed_length_utf32 page ------------------------------

/** Code points of a JS string as UTF-32 sees them: a lone surrogate is one of its own. */
const codePoints = (s) => Array.from(s, (c) => c.codePointAt(0));
const isSurrogate = (p) => p >= 0xd800 && p <= 0xdfff;
/** What a writer may store: at most n code points, each a Unicode scalar value. */
const storable = (s, n) => {
  const p = codePoints(s);
  return p.length <= n && !p.some(isSurrogate);
};
/** A stored element as read: its units without the trailing U+0000 padding. */
function readAs(units) {
  let end = units.length;
  while (end > 0 && units[end - 1] === 0) end--;
  return units.slice(0, end).map((u) => String.fromCodePoint(u)).join("");
}
function unitBytes(elements, n, little) {
  const out = new Uint8Array(4 * n * elements.length);
  const view = new DataView(out.buffer);
  elements.forEach((points, i) => points.forEach((p, k) => view.setUint32(4 * (n * i + k), p, little)));
  return out;
}

/** A random code point: mostly characters of every plane, U+0000, the extremes; lone surrogates when asked. */
function randomPoint(r, surrogates) {
  switch (r.int(surrogates ? 9 : 8)) {
    case 0: return 0;
    case 1: return 0x10ffff;
    case 2: case 3: return 0x20 + r.int(0x5f);
    case 4: return 0x80 + r.int(0xd800 - 0x80);
    case 5: return 0xe000 + r.int(0x2000);
    case 6: case 7: return 0x10000 + r.int(0x100000);
    default: return 0xd800 + r.int(0x800);
  }
}
const randomPoints = (r, count, surrogates) => Array.from({ length: count }, () => randomPoint(r, surrogates));

// ---- the families ----------------------------------------------------------

async function stringsCase(r, z, { withDataTypes }) {
  const n = 1 + r.int(5);
  const little = r.int(2) === 0;
  const v2 = r.int(3) === 0;
  const chunk = 1 + r.int(4);
  const count = 1 + r.int(3);
  const len = chunk * count;
  const nullFill = v2 && r.int(5) === 0;
  const longFill = !nullFill && r.int(10) === 0;
  const fillPoints = randomPoints(r, longFill ? n + 1 : r.int(n + 1), false);
  const fill = nullFill ? null : String.fromCodePoint(...fillPoints);
  const files = new Map();
  const metaKey = v2 ? "/s/.zarray" : "/s/zarr.json";
  files.set(metaKey, json(v2
    ? v2Meta({ shape: [len], chunks: [chunk], dtype: `${little ? "<" : ">"}U${n}`, fill })
    : v3Meta({ shape: [len], chunks: [chunk], dataType: { name: "fixed_length_utf32", configuration: { length_bytes: 4 * n } }, fill, codecs: [{ name: "bytes", configuration: { endian: little ? "little" : "big" } }] })));
  const key = (c) => (v2 ? `/s/${c}` : `/s/c/${c}`);
  const expected = [];
  let badChunk = false;
  for (let c = 0; c < count; c++) {
    const kind = r.int(6);
    if (kind === 0) {
      // Missing: the fill, as a stored one reads (trailing U+0000 dropped).
      for (let i = 0; i < chunk; i++) expected.push(nullFill ? "" : readAs(fillPoints));
      continue;
    }
    const elements = Array.from({ length: chunk }, () => {
      const points = randomPoints(r, r.int(n + 1), r.int(4) === 0);
      return [...points, ...Array(n - points.length).fill(0)];
    });
    if (kind === 1) {
      elements[r.int(chunk)][r.int(n)] = 0x110000 + r.int(0xffff);
      badChunk = true;
    }
    files.set(key(c), unitBytes(elements, n, little));
    // (a chunk with a unit past U+10FFFF is refused, not read)
    for (const units of elements) expected.push(kind === 1 ? undefined : readAs(units));
  }
  const store = memoryStore(files);
  let arr;
  const openFailed = await failureOf(async () => {
    arr = await z.open(z.root(withDataTypes(store)).resolve("s"), { kind: "array" });
  });
  if (longFill) {
    expectThat(openFailed === "INVALID_METADATA", `a fill of ${n + 1} code points into ${n}: ${openFailed ?? "opened"}`);
    return "refused as the reference expects";
  }
  expectThat(openFailed === undefined, `open failed: ${openFailed}`);
  let got;
  const readFailed = await failureOf(async () => {
    got = (await z.get(arr)).data;
  });
  if (badChunk) {
    expectThat(readFailed === "INVALID_INPUT", `a stored unit past U+10FFFF read: ${readFailed ?? "no error"}`);
  } else {
    expectThat(readFailed === undefined, `read failed: ${readFailed}`);
    expectThat(Array.isArray(got) && JSON.stringify(got) === JSON.stringify(expected), `read ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  }
  // A whole-array write: each chunk is stored as its code points if every
  // string of it is storable, and left as it was otherwise.
  const written = Array.from({ length: len }, () => {
    const points = randomPoints(r, r.int(n + (r.int(6) === 0 ? 3 : 1)), r.int(6) === 0);
    return String.fromCodePoint(...points);
  });
  const before = new Map(files);
  const writeFailed = await failureOf(() => z.set(arr, null, { data: written, shape: [len], stride: [1] }));
  await settle();
  const okChunks = Array.from({ length: count }, (_, c) => written.slice(c * chunk, (c + 1) * chunk).every((s) => storable(s, n)));
  expectThat(okChunks.every(Boolean) ? writeFailed === undefined : writeFailed === "VALUE_OUT_OF_RANGE", `write: ${writeFailed ?? "no error"}`);
  for (let c = 0; c < count; c++) {
    const want = okChunks[c]
      ? hex(unitBytes(written.slice(c * chunk, (c + 1) * chunk).map((s) => { const p = codePoints(s); return [...p, ...Array(n - p.length).fill(0)]; }), n, little))
      : before.has(key(c)) ? hex(before.get(key(c))) : "missing";
    const have = files.has(key(c)) ? hex(files.get(key(c))) : "missing";
    expectThat(have === want, `chunk ${c} after the write: ${have}, expected ${want}`);
  }
  return writeFailed ? "refused as the reference expects" : "matched the reference";
}

// Leaves of the records case: their bytes, how a writer checks them, and
// whether they swap.
const LEAVES = {
  int4: { bytes: 1, holds: (b) => ((b << 24) >> 24) >= -8 && ((b << 24) >> 24) <= 7, valid: (r) => (r.int(16) - 8) & 0xff },
  int2: { bytes: 1, holds: (b) => ((b << 24) >> 24) >= -2 && ((b << 24) >> 24) <= 1, valid: (r) => (r.int(4) - 2) & 0xff },
  uint2: { bytes: 1, holds: (b) => b <= 3, valid: (r) => r.int(4) },
  uint4: { bytes: 1, holds: (b) => b <= 15, valid: (r) => r.int(16) },
  float4_e2m1fn: { bytes: 1, holds: (b) => b <= 15, valid: (r) => r.int(16) },
  bool: { bytes: 1, bool: true, holds: () => true, valid: (r) => r.int(3) },
  uint8: { bytes: 1, holds: () => true, valid: (r) => r.int(256) },
  int16: { bytes: 2, swap: 2, holds: () => true },
  float32: { bytes: 4, swap: 4, holds: () => true },
  utf32: { bytes: 8, swap: 4, units: 2 },
};
const V2_LEAVES = { "<U2": "utf32", ">U2": "utf32", "|b1": "bool", "|u1": "uint8", "<i2": "int16", ">i2": "int16" };

async function recordsCase(r, z, { withDataTypes }) {
  const v2 = r.int(3) === 0;
  const names = v2 ? Object.keys(V2_LEAVES) : Object.keys(LEAVES);
  const fields = Array.from({ length: 1 + r.int(4) }, (_, i) => {
    const spec = r.pick(names);
    const leaf = LEAVES[v2 ? V2_LEAVES[spec] : spec];
    // v2 fields carry their own order; v3 fields take the codec's.
    return { name: `f${i}`, spec, leaf, big: v2 ? spec.startsWith(">") : undefined };
  });
  const big = r.int(2) === 0;
  const R = fields.reduce((a, f) => a + f.leaf.bytes, 0);
  const chunk = 1 + r.int(3);
  const count = 1 + r.int(3);
  const len = chunk * count;
  const files = new Map();
  const utf32 = { name: "fixed_length_utf32", configuration: { length_bytes: 8 } };
  const fill = v2 ? null : Object.fromEntries(fields.map((f) => [f.name, f.spec === "utf32" ? "" : f.spec === "bool" ? false : 0]));
  files.set(v2 ? "/r/.zarray" : "/r/zarr.json", json(v2
    ? v2Meta({ shape: [len], chunks: [chunk], dtype: fields.map((f) => [f.name, f.spec]), fill })
    : v3Meta({
      shape: [len], chunks: [chunk], fill,
      dataType: { name: "struct", configuration: { fields: fields.map((f) => ({ name: f.name, data_type: f.spec === "utf32" ? utf32 : f.spec })) } },
      codecs: [{ name: "bytes", configuration: { endian: big ? "big" : "little" } }],
    })));
  const key = (c) => (v2 ? `/r/${c}` : `/r/c/${c}`);
  // Presented records: every leaf little-endian; mostly values the leaf
  // holds, sometimes not.
  const presented = new Uint8Array(len * R);
  const view = new DataView(presented.buffer);
  const holds = new Array(len).fill(true);
  for (let i = 0; i < len; i++) {
    let at = i * R;
    for (const f of fields) {
      if (f.leaf.units) {
        for (let k = 0; k < f.leaf.units; k++) {
          const p = r.int(7) === 0 ? r.pick([0xd800 + r.int(0x800), 0x110000 + r.int(1 << 20), 0xffffffff]) : randomPoint(r, false);
          view.setUint32(at + 4 * k, p, true);
          if (p > 0x10ffff || isSurrogate(p)) holds[i] = false;
        }
      } else if (f.leaf.valid && r.int(5) !== 0) {
        presented[at] = f.leaf.valid(r);
      } else {
        for (let k = 0; k < f.leaf.bytes; k++) presented[at + k] = r.int(256);
        if (!f.leaf.holds(presented[at])) holds[i] = false;
      }
      at += f.leaf.bytes;
    }
  }
  // The stored form, by the struct page: multi-byte leaves in the field's
  // (or the codec's) order, bools as 0 or 1.
  const storedOf = (records) => {
    const out = records.slice();
    for (let i = 0; i < out.length / R; i++) {
      let at = i * R;
      for (const f of fields) {
        if (f.leaf.bool) out[at] = out[at] !== 0 ? 1 : 0;
        if (f.leaf.swap && (f.big ?? big)) {
          for (let w = 0; w < f.leaf.bytes; w += f.leaf.swap) out.subarray(at + w, at + w + f.leaf.swap).reverse();
        }
        at += f.leaf.bytes;
      }
    }
    return out;
  };
  const store = memoryStore(files);
  const arr = await z.open(z.root(withDataTypes(store)).resolve("r"), { kind: "array" });
  const failed = await failureOf(() => z.set(arr, null, { data: presented, shape: [len, R], stride: [R, 1] }));
  await settle();
  const okChunk = (c) => holds.slice(c * chunk, (c + 1) * chunk).every(Boolean);
  const allOk = Array.from({ length: count }, (_, c) => okChunk(c)).every(Boolean);
  expectThat(allOk ? failed === undefined : failed === "VALUE_OUT_OF_RANGE", `write: ${failed ?? "no error"}`);
  // Read back: the stored bytes presented again (multi-byte leaves
  // little-endian, bools as stored); a missing chunk reads as the (zero)
  // fill.
  const readBack = new Uint8Array(len * R);
  for (let c = 0; c < count; c++) {
    const part = presented.subarray(c * chunk * R, (c + 1) * chunk * R);
    const want = okChunk(c) ? hex(storedOf(part)) : "missing";
    const have = files.has(key(c)) ? hex(files.get(key(c))) : "missing";
    expectThat(have === want, `chunk ${c}: ${have}, expected ${want}`);
    if (okChunk(c)) readBack.set(storedOf(storedOf(part)), c * chunk * R); // the swaps undone; bools stay 0/1
  }
  const got = (await z.get(arr)).data;
  expectThat(hex(got) === hex(readBack), `read back ${hex(got)}, expected ${hex(readBack)}`);
  return failed ? "refused as the reference expects" : "matched the reference";
}

async function voidFillCase(r, z, { withDataTypes }, hasExtensions) {
  const n = 1 + r.int(6);
  const bytes = r.int(2) === 0 ? new Uint8Array(n).fill(r.int(256)) : r.bytes(n);
  const kind = r.int(8);
  let fill = Buffer.from(bytes).toString("base64");
  let fillBytes = bytes;
  let refused = false;
  if (kind === 0) {
    fill = null;
    fillBytes = new Uint8Array(n);
  } else if (kind === 1) {
    fill = Buffer.from(r.bytes(n + 1 + r.int(3))).toString("base64");
    refused = true;
  } else if (kind === 2) {
    fill = r.pick(["A*AA", "not base64", 7, "", "===="]);
    refused = true;
  }
  const chunk = 1 + r.int(3);
  const count = 1 + r.int(3);
  const files = new Map([["/v/.zarray", json(v2Meta({ shape: [chunk * count], chunks: [chunk], dtype: `|V${n}`, fill }))]]);
  const expected = [];
  let missing = false;
  for (let c = 0; c < count; c++) {
    if (r.int(3) === 0) {
      missing = true;
      for (let i = 0; i < chunk; i++) expected.push(...fillBytes);
    } else {
      const stored = r.bytes(chunk * n);
      files.set(`/v/${c}`, stored);
      expected.push(...stored);
    }
  }
  let arr;
  const openFailed = await failureOf(async () => {
    arr = await z.open(z.root(withDataTypes(memoryStore(files))).resolve("v"), { kind: "array" });
  });
  if (refused) {
    expectThat(openFailed === "INVALID_METADATA", `fill ${JSON.stringify(fill)} for |V${n}: ${openFailed ?? "opened"}`);
    return "refused as the reference expects";
  }
  expectThat(openFailed === undefined, `open: ${openFailed}`);
  let got;
  const failed = await failureOf(async () => {
    got = (await z.get(arr)).data;
  });
  if (missing && !hasExtensions && !fillBytes.every((b) => b === fillBytes[0])) {
    expectThat(failed === "UNFILLABLE_CHUNK", `zarrita 0.5, a fill whose bytes differ, a missing chunk: ${failed ?? "read"}`);
    return "refused as the reference expects";
  }
  expectThat(failed === undefined && hex(got) === hex(Uint8Array.from(expected)), `read ${failed ?? hex(got)}, expected ${hex(Uint8Array.from(expected))}`);
  return "matched the reference";
}

// Shard layout from the sharding_indexed spec: the inner chunks, then the
// index of (offset, nbytes) little-endian uint64 pairs, 2^64 - 1 twice for
// a missing one, then its crc32c (zarrita 0.5 reads no index without one).
function shardOf(inner) {
  const body = inner.filter(Boolean);
  const size = body.reduce((a, b) => a + b.length, 0);
  const out = new Uint8Array(size + 16 * inner.length + 4);
  const view = new DataView(out.buffer);
  let at = 0;
  inner.forEach((c, i) => {
    if (c) {
      out.set(c, at);
      view.setBigUint64(size + 16 * i, BigInt(at), true);
      view.setBigUint64(size + 16 * i + 8, BigInt(c.length), true);
      at += c.length;
    } else {
      view.setBigUint64(size + 16 * i, 2n ** 64n - 1n, true);
      view.setBigUint64(size + 16 * i + 8, 2n ** 64n - 1n, true);
    }
  });
  view.setUint32(size + 16 * inner.length, crc32c(out.subarray(size, size + 16 * inner.length)), true);
  return out;
}

/** A type whose element is several presented values, its fill, and that fill's presented values. */
function unevenType(r) {
  switch (r.int(3)) {
    case 0: {
      const x = r.int(65536) - 32768;
      const y = r.int(256);
      return { dataType: { name: "struct", configuration: { fields: [{ name: "x", data_type: "int16" }, { name: "y", data_type: "uint8" }] } }, fill: { x, y }, parts: [x & 0xff, (x >> 8) & 0xff, y], bytes: 3, decode: (b) => Array.from(b) };
    }
    case 1: {
      const n = 1 + r.int(4);
      const fill = Array.from(r.bytes(n));
      return { dataType: { name: "raw_bytes", configuration: { length_bytes: n } }, fill, parts: fill, bytes: n, decode: (b) => Array.from(b) };
    }
    default: {
      const fill = [r.int(9) - 4, r.int(9) - 4];
      return { dataType: "complex64", fill, parts: fill, bytes: 8, decode: (b) => Array.from(new Float32Array(b.slice().buffer)) };
    }
  }
}

async function shardedCase(r, z, { withDataTypes }, hasExtensions) {
  const t = unevenType(r);
  const inner = 1 + r.int(3);
  const perShard = 1 + r.int(3);
  const shards = 1 + r.int(3);
  const len = inner * perShard * shards;
  const files = new Map([["/a/zarr.json", json(v3Meta({
    shape: [len], chunks: [inner * perShard], dataType: t.dataType, fill: t.fill,
    codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [inner], codecs: [{ name: "bytes", configuration: { endian: "little" } }], index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }], index_location: "end" } }],
  }))]]);
  const expected = [];
  let missing = false;
  for (let s = 0; s < shards; s++) {
    if (r.int(5) === 0) {
      missing = true;
      for (let i = 0; i < inner * perShard; i++) expected.push(...t.parts);
      continue;
    }
    const chunks = Array.from({ length: perShard }, () => {
      if (r.int(3) === 0) {
        missing = true;
        for (let i = 0; i < inner; i++) expected.push(...t.parts);
        return null;
      }
      const stored = t.dataType === "complex64"
        ? new Uint8Array(new Float32Array(Array.from({ length: 2 * inner }, () => r.int(100) - 50)).buffer)
        : r.bytes(inner * t.bytes);
      for (let i = 0; i < inner; i++) expected.push(...t.decode(stored.subarray(i * t.bytes, (i + 1) * t.bytes)));
      return stored;
    });
    files.set(`/a/c/${s}`, shardOf(chunks));
  }
  const arr = await z.open(z.root(withDataTypes(memoryStore(files))).resolve("a"), { kind: "array" });
  let got;
  const failed = await failureOf(async () => {
    got = (await z.get(arr)).data;
  });
  const even = t.parts.every((p) => Object.is(p, t.parts[0]));
  if (missing && !hasExtensions && !even) {
    expectThat(failed === "UNFILLABLE_CHUNK", `zarrita 0.5, a missing inner chunk: ${failed ?? "read"}`);
    return "refused as the reference expects";
  }
  expectThat(failed === undefined && JSON.stringify(Array.from(got)) === JSON.stringify(expected), `read ${failed ?? JSON.stringify(Array.from(got))}, expected ${JSON.stringify(expected)}`);
  return "matched the reference";
}

async function hugeMissingCase(r, z, { withDataTypes }, hasExtensions) {
  // 2^32 to 2^46 elements (with a trailing dimension of up to 8, still
  // within the 2^53 elements a presented shape may have).
  const side = () => 2 ** (16 + r.int(8));
  const shape = [side(), side()];
  const kind = r.int(4);
  let dataType, fill, element, codecs = [{ name: "bytes", configuration: { endian: "little" } }];
  if (kind === 0) {
    dataType = "int4";
    fill = r.int(16) - 8;
    element = [fill];
    codecs = [{ name: "packbits" }];
  } else if (kind === 1) {
    const points = randomPoints(r, r.int(3), false);
    dataType = { name: "fixed_length_utf32", configuration: { length_bytes: 8 } };
    fill = String.fromCodePoint(...points);
    element = [readAs([...points, 0, 0].slice(0, 2))];
  } else {
    const t = unevenType(r);
    dataType = t.dataType;
    fill = t.fill;
    element = t.parts;
  }
  const trailing = kind >= 2;
  const even = element.every((p) => Object.is(p, element[0]));
  // zarrita 0.5 fills a missing chunk itself, allocating all of it (up to
  // gigabytes before it fails, or not): not the package's to test.
  if (!hasExtensions && (even || !trailing)) return "not read (zarrita 0.5 allocates the whole chunk)";
  const files = new Map([["/h/zarr.json", json(v3Meta({ shape, chunks: shape, dataType, fill, codecs }))]]);
  const arr = await z.open(z.root(withDataTypes(memoryStore(files))).resolve("h"), { kind: "array" });
  const [h, w] = [1 + r.int(3), 1 + r.int(3)];
  const [y, x] = [r.int(shape[0] - h), r.int(shape[1] - w)];
  let got;
  const failed = await failureOf(async () => {
    got = (await z.get(arr, [z.slice(y, y + h), z.slice(x, x + w), ...(trailing ? [null] : [])])).data;
  });
  if (!hasExtensions) {
    // A fill whose parts differ: refused before zarrita fills the chunk.
    expectThat(failed === "UNFILLABLE_CHUNK", `zarrita 0.5, a huge uneven missing chunk: ${failed ?? "read"}`);
    return "refused as the reference expects";
  }
  const want = Array(h * w).fill(element).flat();
  expectThat(failed === undefined && JSON.stringify(Array.from(got)) === JSON.stringify(want), `read ${failed ?? JSON.stringify(Array.from(got))}, expected ${JSON.stringify(want)}`);
  return "matched the reference";
}

export const FAMILIES = {
  strings: stringsCase,
  records: recordsCase,
  "void fills": voidFillCase,
  "sharded missing inner chunks": shardedCase,
  "huge missing chunks": hugeMissingCase,
};

/**
 * One case of a random family: [family, outcome]. A result the reference
 * does not expect throws Unexpected (its message says what differed).
 */
export async function referenceCase(r, z, pkg, hasExtensions) {
  const family = r.pick(Object.keys(FAMILIES));
  return [family, await FAMILIES[family](r, z, pkg, hasExtensions)];
}

export { Unexpected };
