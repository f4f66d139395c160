// A blosc frame with snappy inside goes to numcodecs.js's blosc (the codec
// register() replaced), which hands back its output buffer unwritten
// where c-blosc fails. So the frame is walked first
// (js/compressors/handover.js): one whose snappy data is not snappy is the
// package's CORRUPT_DATA, never numcodecs.js's leftover bytes. Frames are
// Debian's numcodecs' (scripts/write-blosc-cname-stores.py, in a
// temporary folder); numcodecs.js's own output is shown to be garbage for
// the same frames, so the check is what stands between them and a read.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zarr from "zarrita";
import BloscJs from "numcodecs/blosc";
import { ready, register, ZarrCodecError } from "../../../js/index.js";
import { ROOT } from "../support/browser.js";

jest.setTimeout(120000);

let dir;
let frames; // [key, frame] of blosc_snappy_u2's snappy-compressed chunks
let expected;
const CHUNK = 12 * 24 * 2;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  dir = mkdtempSync(join(tmpdir(), "zcw-snappy-"));
  execFileSync("/usr/bin/python3", [join(ROOT, "scripts/write-blosc-cname-stores.py"), dir]);
  expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
  const folder = join(dir, "cnames.zarr", "blosc_snappy_u2");
  frames = readdirSync(folder)
    .filter((k) => !k.startsWith(".") && !(expected.blosc_snappy_u2.flags[k] & 0x02))
    .map((k) => [k, new Uint8Array(readFileSync(join(folder, k)))]);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const CONFIG = { cname: "snappy", clevel: 5, shuffle: 1, blocksize: 0 };
const META = {
  dataType: "uint16",
  shape: [12, 24],
  codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "blosc", configuration: CONFIG }],
};

async function outcome(codec, frame) {
  try {
    return { bytes: await codec.decode(frame) };
  } catch (error) {
    return { error };
  }
}

// Where the first block's first stream starts (after the header and the
// block offsets), and its snappy data (after the stream's int32 length).
const firstStream = (frame) => frame[16] | (frame[17] << 8) | (frame[18] << 16) | (frame[19] << 24);

describe("blosc frames with snappy inside, handed to numcodecs.js only when sound", () => {
  test("a sound frame reads, to the chunk's size (its values: blosc-cnames.test.js)", async () => {
    const codec = (await zarr.registry.get("blosc")()).fromConfig(CONFIG, META);
    expect(frames.length).toBeGreaterThan(0);
    for (const [key, frame] of frames) {
      const { bytes } = await outcome(codec, frame);
      expect([key, bytes?.byteLength]).toEqual([key, CHUNK]);
    }
  });

  test("snappy data that says another length, or a copy from before the start: CORRUPT_DATA, where numcodecs.js hands back bytes", async () => {
    const codec = (await zarr.registry.get("blosc")()).fromConfig(CONFIG, META);
    const [, frame] = frames[0];
    const data = firstStream(frame) + 4;
    // The varint length of the first stream, one more.
    const longer = frame.slice();
    longer[data] += 1;
    // The first element after the varint made a copy (tag type 1) 2047 bytes back.
    const back = frame.slice();
    let at = data;
    while (back[at] & 0x80) at++;
    back[at + 1] = 0x01 | (7 << 5);
    back[at + 2] = 0xff;
    for (const [what, bad, because] of [
      ["a length one more", longer, /^blosc: the frame is compressed with snappy, which is not built in \(blosclz, lz4, lz4hc, zlib and zstd are\); the frame says snappy inside, but block 0's stream 0 is no snappy stream of \d+ bytes: it says \d+ bytes$/],
      ["a copy from before the start", back, /^blosc: the frame is compressed with snappy, .*; the frame says snappy inside, but block 0's stream 0 is no snappy stream of \d+ bytes: a copy reaches 2047 bytes back, where 0 are decoded$/],
    ]) {
      const { bytes, error } = await outcome(codec, bad);
      expect([what, bytes, error instanceof ZarrCodecError, error?.code]).toEqual([what, undefined, true, "CORRUPT_DATA"]);
      expect(error.message).toMatch(because);
      // numcodecs.js alone: no error, a chunk of whatever its buffer held.
      const garbage = await BloscJs.fromConfig(CONFIG).decode(bad);
      expect([what, garbage.byteLength]).toEqual([what, CHUNK]);
    }
  });

  test("every byte of a frame flipped: the package's error or a chunk of the chunk's size, never a failure of another kind", async () => {
    const codec = (await zarr.registry.get("blosc")()).fromConfig(CONFIG, META);
    const [, frame] = frames[frames.length - 1];
    const seen = new Set();
    for (let i = 0; i < frame.length; i++) {
      const bad = frame.slice();
      bad[i] ^= 0xff;
      const { bytes, error } = await outcome(codec, bad);
      if (error) {
        expect([i, error instanceof ZarrCodecError]).toEqual([i, true]);
        seen.add(error.code);
      } else {
        expect([i, bytes.byteLength]).toEqual([i, CHUNK]);
        seen.add("read");
      }
    }
    expect(seen.has("CORRUPT_DATA")).toBe(true);
  });
});
