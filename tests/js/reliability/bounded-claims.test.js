// A frame's claim where the metadata gives no decoded size (a Zarr v2
// object array: vlen-utf8 after blosc, so the compressor decodes within a
// limit of 1 GiB rather than to a size): taken only as far as the frame's
// bytes could decode to, and refused before anything is allocated. wasm
// memory never shrinks, so before issue 33 the frame below, 32 KiB of blosc
// with lz4 inside whose header says nbytes = 1 GiB, left the instance
// 1,163,264,000 bytes larger for good: the bounded decode took zstd's ratio for every blosc
// frame (2^15, so 32 KiB could hold 1 GiB) and allocated the claim before
// checking the layout. lz4's bytes hold at most 255 times as many (8 MiB
// for this frame); a memcpyed frame holds exactly its nbytes; zstd inside
// may claim 2^15 times its bytes, but not with block offsets outside the
// frame. The frames are made here by hand from c-blosc's header layout
// (README_CHUNK_FORMAT.rst): version 2, the inner codec's format version 1,
// flags (0x01 shuffle, 0x02 memcpyed, 0x10 not split, the inner codec in
// the top three bits: lz4 1, zstd 4), typesize, then nbytes, blocksize and
// cbytes as little-endian int32s.
import { beforeAll, describe, expect, jest, test } from "@jest/globals";
import BloscJs from "numcodecs/blosc";
import { diagnostics, read, ready, register, ZarrCodecError } from "../../../js/index.js";
import { packageErrorOf } from "../support/compressed-fixtures.js";
import { memoryStore } from "../support/memory-store.js";
import { ZARRITAS } from "../support/zarritas.js";

jest.setTimeout(60000);

// The most wasm memory may grow past what it was before any hostile chunk
// was read (the whole file, this file's own instance: memory a claim grew
// stays, and a later claim would reuse it unseen): a few chunks' worth,
// never a claim.
const MEMORY_BOUND = 16 * 1024 * 1024;
let baseline;

const u32le = (v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];

/** A blosc 1.x frame of `cbytes` bytes: its header, then `fill(at)` for each byte after it. */
function bloscFrame({ flags, typesize = 1, nbytes, blocksize, cbytes, fill = () => 0 }) {
  const out = new Uint8Array(cbytes);
  out.set([2, 1, flags, typesize, ...u32le(nbytes), ...u32le(blocksize), ...u32le(cbytes)]);
  for (let at = 16; at < cbytes; at++) out[at] = fill(at);
  return out;
}

/** numcodecs' VLenUTF8: a u32 count, then per string its u32 length and its UTF-8 bytes. */
function vlenUtf8(items) {
  const parts = items.map((t) => new TextEncoder().encode(t));
  const out = new Uint8Array(4 + parts.reduce((n, p) => n + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, items.length, true);
  let at = 4;
  for (const p of parts) {
    view.setUint32(at, p.length, true);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
}

const HOSTILE = [
  [
    "issue 33's frame: 32 KiB, lz4 inside, nbytes 1 GiB",
    bloscFrame({ flags: 0x01 | 0x10 | (1 << 5), nbytes: 2 ** 30, blocksize: 2 ** 16, cbytes: 32768, fill: (at) => (at * 131) & 0xff }),
    // 255 * (32768 - 16) = 8351760
    "blosc: the header says it decodes to 1073741824 bytes (nbytes), more than its 32752 bytes of lz4 after the header can hold (at most 255 per byte: 8351760)",
  ],
  [
    "memcpyed, 32 KiB, nbytes 1 GiB",
    bloscFrame({ flags: 0x02, nbytes: 2 ** 30, blocksize: 2 ** 16, cbytes: 32768 }),
    "blosc: a memcpyed frame holds its nbytes (1073741824) after its 16-byte header, so it has 1073741840 bytes; this one has 32768 (cbytes)",
  ],
  [
    "zstd inside, 32 KiB, nbytes 512 MiB, block offsets into the header",
    bloscFrame({ flags: 0x10 | (4 << 5), nbytes: 2 ** 29, blocksize: 2 ** 20, cbytes: 32768 }),
    // 512 blocks: their offsets take bytes 16 to 2064
    "blosc: block 0's stream 0 starts at byte 0, outside the frame's data (2064..32764)",
  ],
];

beforeAll(async () => {
  await ready();
  for (const [, z] of ZARRITAS) register(z.registry);
  baseline = diagnostics().wasmMemoryBytes();
});

// (zarrita 0.5 reads no v2 object arrays.)
describe.each(ZARRITAS.filter(([v]) => v === "0.6.2" || v.startsWith("0.7")))("zarrita %s, a v2 object array (vlen-utf8 after blosc)", (_v, z) => {
  test.each(HOSTILE)("%s: CORRUPT_DATA through zarr.get and read, wasm memory grows by less than 16 MiB, the next chunk reads", async (_name, frame, message) => {
    const good = new Uint8Array(await BloscJs.fromConfig({ cname: "lz4", clevel: 5, shuffle: 1 }).encode(vlenUtf8(["ab", "ünï"])));
    const store = memoryStore([
      ["/s/.zarray", {
        zarr_format: 2, shape: [4], chunks: [2], dtype: "|O", fill_value: 0, order: "C",
        compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
        filters: [{ id: "vlen-utf8" }],
      }],
      ["/s/0", frame],
      ["/s/1", good],
    ]);
    const arr = await z.open.v2(z.root(store).resolve("s"), { kind: "array" });
    for (const attempt of [() => z.get(arr, [z.slice(0, 2)]), () => read(arr, [z.slice(0, 2)])]) {
      const error = packageErrorOf(await attempt().then(() => undefined, (e) => e));
      expect(error).toBeInstanceOf(ZarrCodecError);
      expect([error.code, error.message]).toEqual(["CORRUPT_DATA", message]);
    }
    expect(diagnostics().wasmMemoryBytes() - baseline).toBeLessThan(MEMORY_BOUND);
    expect(Array.from((await z.get(arr, [z.slice(2, 4)])).data)).toEqual(["ab", "ünï"]);
    expect(Array.from((await read(arr, [z.slice(2, 4)])).data)).toEqual(["ab", "ünï"]);
  });
});
