// register(registry, { compressors: false }) keeps zarrita's own
// compressors (numcodecs.js's blosc, zstd and lz4; zarrita's gzip and zlib
// over DecompressionStream), in a process of its own (so that no other
// test's register() has replaced them first): with zarrita 0.5, 0.6 and
// 0.7 every compressor name still holds the very loader zarrita set, which
// resolves to numcodecs.js's class (not the package's), and a compressed
// fixture store reads through them, with read's chain in wasm never taken;
// N5 blocks' blosc and zstd framing is checked before numcodecs.js runs.
// With the default options the same registry then holds the package's.
import { expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { ROOT } from "../support/browser.js";

jest.setTimeout(60000);

const SCRIPT = `
import * as z5 from "zarrita-0.5";
import * as z6 from "zarrita-0.6";
import * as z7 from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import Zstd from "numcodecs/zstd";
import Blosc from "numcodecs/blosc";
import LZ4 from "numcodecs/lz4";
import { readFileSync } from "node:fs";
import { diagnostics, read, ready, register, withN5 } from "./js/index.js";
import { COMPRESSOR_CLASSES } from "./js/compressors/codecs.js";

await ready();
const NUMCODECS = { zstd: Zstd, blosc: Blosc, lz4: LZ4 };
const NAMES = [...COMPRESSOR_CLASSES.keys()];
const out = {};
for (const [version, zarr] of [["0.5", z5], ["0.6", z6], ["0.7", z7]]) {
  const before = new Map(NAMES.map((n) => [n, zarr.registry.get(n)]));
  register(zarr.registry, { compressors: false });
  const changed = NAMES.filter((n) => zarr.registry.get(n) !== before.get(n));
  const classes = {};
  for (const name of NAMES) {
    const loader = zarr.registry.get(name);
    if (typeof loader !== "function") continue;
    const Codec = await loader();
    const bare = name.replace("numcodecs.", "");
    classes[name] = Codec === COMPRESSOR_CLASSES.get(name) ? "package" : NUMCODECS[bare] === Codec ? "numcodecs.js" : "zarrita:" + Codec.name;
  }
  const store = new FileSystemStore("tests/fixtures/v2-compressed.zarr");
  const values = {};
  const counts = diagnostics().reads();
  for (const name of ["zstd_l1_u2", "blosc_lz4_shuffle_u2", "lz4_a1_u2", "gzip_l1_i4", "zlib_l9_u2"]) {
    const arr = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
    const a = await zarr.get(arr);
    const b = await read(arr);
    values[name] = [Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).toString("hex"), Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength).toString("hex")];
  }
  const after = diagnostics().reads();
  out[version] = { changed, classes, values, decompressed: after.decompressed - counts.decompressed };
}
// N5 blocks through numcodecs.js: their blosc and zstd framing is checked
// before it runs (js/n5/compressed-frames.js; it trusts what a frame says).
const N5 = "tests/fixtures/n5-store.n5";
const damaged = new Map();
const block = (path) => new Uint8Array(readFileSync(N5 + "/" + path));
const blosc = block("volumes/raw/blosc/0/0");
const badCodec = blosc.slice();
badCodec[12 + 2] = 0xe1; // flags: compressor code 7
const zstd = block("volumes/raw/zstd/0/0");
for (const [name, source, bytes] of [["blosc_codec", "blosc", badCodec], ["zstd_trailing", "zstd", new Uint8Array([...zstd, 0x28, 0xb5, 0x2f, 0xfd])], ["blosc_good", "blosc", blosc]]) {
  damaged.set("/" + name + "/attributes.json", readFileSync(N5 + "/volumes/raw/" + source + "/attributes.json"));
  damaged.set("/" + name + "/0/0", bytes);
}
const n5 = withN5({ get: async (key) => damaged.get(key) });
out.n5 = {};
for (const name of ["blosc_codec", "zstd_trailing", "blosc_good"]) {
  const arr = await z7.open(z7.root(n5).resolve(name), { kind: "array" });
  try {
    const got = await z7.get(arr, [z7.slice(0, 2), z7.slice(0, 3)]);
    out.n5[name] = Array.from(got.data).map(Number);
  } catch (error) {
    let e = error;
    while (e && !e.code && e.cause) e = e.cause;
    out.n5[name] = [e.code, e.message];
  }
}
const real = await z7.open(z7.root(withN5(new FileSystemStore(N5))).resolve("volumes/raw/blosc"), { kind: "array" });
out.n5.fixture = Array.from((await z7.get(real, [z7.slice(0, 2), z7.slice(0, 3)])).data).map(Number);
// (read takes codecs from every registry register() extended: each is
// registered with the defaults only once all three have been read.)
for (const [version, zarr] of [["0.5", z5], ["0.6", z6], ["0.7", z7]]) {
  register(zarr.registry);
  out[version].now = {};
  for (const name of Object.keys(out[version].classes)) out[version].now[name] = (await zarr.registry.get(name)()) === COMPRESSOR_CLASSES.get(name);
}
console.log(JSON.stringify(out));
`;

test("compressors: false keeps zarrita's own compressors (numcodecs.js for blosc, zstd, lz4), which then read the stores", async () => {
  const stdout = execFileSync("node", ["--input-type=module", "-e", SCRIPT], { cwd: ROOT, encoding: "utf8" });
  const out = JSON.parse(stdout.trim().split("\n").pop());
  const { V2_EXPECTED } = await import("../support/compressed-fixtures.js");
  for (const version of ["0.5", "0.6", "0.7"]) {
    const r = out[version];
    const names = Object.keys(r.classes);
    // Every compressor name holds what zarrita set (or stays unset: 0.5
    // has no numcodecs.* names).
    expect(r.changed).toEqual([]);
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      const bare = name.replace("numcodecs.", "");
      expect([version, name, r.classes[name]]).toEqual([version, name, ["zstd", "blosc", "lz4"].includes(bare) ? "numcodecs.js" : expect.stringMatching(/^zarrita:/)]);
    }
    for (const [name, [viaGet, viaRead]] of Object.entries(r.values)) {
      expect([version, name, viaGet]).toEqual([version, name, V2_EXPECTED[name].little_endian_hex]);
      expect([version, name, viaRead]).toEqual([version, name, V2_EXPECTED[name].little_endian_hex]);
    }
    // read ran zarrita's codecs, not its chain in wasm.
    expect(r.decompressed).toBe(0);
    // Registered again with the defaults: the package's compressors.
    for (const name of names) expect([version, name, r.now[name]]).toEqual([version, name, true]);
  }
  // numcodecs.js would read the first as its output buffer unwritten and
  // loop forever on the second: refused before it runs; a sound block reads.
  expect(out.n5.blosc_codec).toEqual(["INVALID_INPUT", "n5_default: block /blosc_codec/0/0: its blosc header has compressor code 7 (blosc has 0 to 4), which c-blosc refuses"]);
  expect(out.n5.zstd_trailing).toEqual(["LENGTH_MISMATCH", "n5_default: block /zstd_trailing/0/0: its zstd data ends inside a frame header (25 bytes after the block header)"]);
  expect(out.n5.blosc_good).toHaveLength(6);
  expect(out.n5.blosc_good).toEqual(out.n5.fixture);
  expect(out.n5.blosc_good.some((v) => v !== 0)).toBe(true);
});
