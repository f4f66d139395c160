// Whether a frame the package's decoders refused as UNSUPPORTED_CODEC may
// go to the codec register() replaced (compressor-codec.js), and what that
// codec's output must measure.
//
// numcodecs.js's blosc does not report c-blosc's failures: a frame c-blosc
// refuses comes back as numcodecs.js's output buffer, unwritten (and the
// package promises an error, never such bytes). So the one blosc frame
// handed over, snappy inside (which c-blosc 1 reads and the package's
// decoders do not), is first walked here as c-blosc walks it (blosc.c,
// blosc_d; the same layout blosc_frames.cpp reads): its header, each
// block's offset, each stream's length, and each snappy stream parsed
// whole (snappy's format_description.txt: a varint length, then literals
// and copies, every copy within what is already decoded), decoding to
// exactly its stream's bytes, as snappy's own check (IsValidCompressed)
// does. What passes, c-blosc decodes in full, and its nbytes (what
// numcodecs.js allocates) is no more than that data makes: at most 64
// bytes per 3-byte copy, about 21 per byte of the frame. The other blosc
// frames our decoders refuse (a c-blosc2 chunk, a later format's flags)
// c-blosc 1 refuses too, silently: they are not handed over. Other compressors'
// replaced codecs (numcodecs.js's zstd, zarrita's gzip and zlib) throw
// when they cannot decode a frame: theirs are handed over as they are.

const BLOSC_HEADER = 16;
const SNAPPY = 2;

const u32 = (b, at) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/**
 * Whether `frame`, refused by the decoders of `name`, may go to the codec
 * register() replaced: { refused: { code, message } } where it may not;
 * else {}, or { size } where the frame says what the output must measure
 * (blosc's nbytes).
 * @param {string} name the compression ("blosc", "zstd", ...)
 * @param {Uint8Array} frame
 * @returns {{refused?: {code: string, message: string}, size?: number}}
 */
export function handover(name, frame) {
  if (name !== "blosc") return {};
  // A later format (c-blosc2, flag 0x08, snappy's own format past 1): as the decoders do, UNSUPPORTED_CODEC.
  if (frame.length < BLOSC_HEADER || frame[0] !== 2 || frame[2] >> 5 !== SNAPPY || frame[2] & 0x0a || frame[1] !== 1) {
    return { refused: { code: "UNSUPPORTED_CODEC", message: "c-blosc 1, which the blosc codec register() replaced runs, does not read it either" } };
  }
  const problem = snappyFrameProblem(frame);
  if (problem) return { refused: { code: "CORRUPT_DATA", message: `the frame says snappy inside, but ${problem}` } };
  return { size: u32(frame, 4) };
}

// A blosc frame (version 2, not memcpyed) with snappy inside: why c-blosc
// would refuse it, or undefined.
function snappyFrameProblem(b) {
  const typesize = b[3];
  const nbytes = u32(b, 4);
  const blocksize = u32(b, 8);
  const cbytes = u32(b, 12);
  if (cbytes !== b.length) return `the header says ${cbytes} bytes (cbytes), the chunk has ${b.length}`;
  if (nbytes === 0) return cbytes === BLOSC_HEADER ? undefined : `an empty frame has ${cbytes} bytes, not 16`;
  if (typesize === 0) return "the header's typesize is 0";
  if (blocksize === 0 || blocksize > nbytes) return `the header's blocksize ${blocksize} is not within 1..${nbytes} (nbytes)`;
  const blocks = Math.ceil(nbytes / blocksize);
  if (BLOSC_HEADER + 4 * blocks > cbytes) return `its ${blocks} blocks' offsets alone need more than its ${cbytes} bytes`;
  const leftover = nbytes % blocksize;
  for (let j = 0; j < blocks; j++) {
    const last = j === blocks - 1 && leftover > 0;
    const size = last ? leftover : blocksize;
    // c-blosc splits a whole block into one stream per byte of the type
    // where the header allows it (flag 0x10 unset) and it holds >= 128 values.
    const splits = !(b[2] & 0x10) && typesize <= 16 && Math.floor(size / typesize) >= 128 && !last ? typesize : 1;
    const streamBytes = size / splits;
    let at = u32(b, BLOSC_HEADER + 4 * j);
    for (let s = 0; s < splits; s++) {
      if (at < BLOSC_HEADER + 4 * blocks || at > cbytes - 4) return `block ${j}'s stream ${s} starts at ${at}, outside the frame`;
      const length = u32(b, at);
      at += 4;
      if (length > cbytes - at) return `block ${j}'s stream ${s} runs past the frame's end`;
      // A stream as long as its bytes is stored as it is.
      if (length !== streamBytes) {
        const why = snappyStreamProblem(b.subarray(at, at + length), streamBytes);
        if (why) return `block ${j}'s stream ${s} is no snappy stream of ${streamBytes} bytes: ${why}`;
      }
      at += length;
    }
  }
  return undefined;
}

// A raw snappy stream decoding to exactly `expected` bytes: why not, or undefined.
function snappyStreamProblem(s, expected) {
  let at = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (at >= s.length || shift > 28) return "its length (a varint) is cut short or too long";
    const byte = s[at++];
    length += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) break;
  }
  if (length !== expected) return `it says ${length} bytes`;
  let out = 0;
  while (at < s.length) {
    const tag = s[at++];
    const type = tag & 3;
    let n;
    if (type === 0) {
      n = tag >> 2;
      if (n >= 60) {
        const extra = n - 59;
        if (at + extra > s.length) return "a literal's length is cut short";
        n = 0;
        for (let i = 0; i < extra; i++) n += s[at + i] * 2 ** (8 * i);
        at += extra;
      }
      n += 1;
      if (n > s.length - at) return "a literal runs past its end";
      at += n;
    } else {
      const width = [0, 1, 2, 4][type];
      if (at + width > s.length) return "a copy's offset is cut short";
      let offset;
      if (type === 1) {
        n = ((tag >> 2) & 7) + 4;
        offset = ((tag >> 5) << 8) | s[at];
      } else {
        n = (tag >> 2) + 1;
        offset = type === 2 ? s[at] | (s[at + 1] << 8) : u32(s, at);
      }
      at += width;
      if (offset === 0 || offset > out) return `a copy reaches ${offset} bytes back, where ${out} are decoded`;
    }
    out += n;
    if (out > expected) return `it decodes to more than ${expected} bytes`;
  }
  return out === expected ? undefined : `it decodes to ${out} bytes`;
}
