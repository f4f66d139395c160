// What a compressed N5 block says about itself before a compressor that
// is not the package's runs: the framing of blosc and zstd, read here,
// against the payload size the block's header implies. The package's own
// compressors check all of it themselves; these checks are for zarrita's
// registry where register was told { compressors: false } (numcodecs.js),
// which trusts its input:
//
// - numcodecs.js's blosc allocates what the blosc header's nbytes says
//   (a hostile 2 GiB is a RangeError), reads as many compressed bytes as
//   its cbytes says, past the end of a short block, and ignores c-blosc's
//   failure, handing back its output buffer unwritten;
// - numcodecs.js's zstd loops forever when a frame is followed by the
//   start of another that is cut short, traps ("memory access out of
//   bounds", after which that module instance fails every call) on some
//   truncated blocks, and allocates what a frame's content size says.
//
// So a blosc block must have a whole header whose sizes agree with the
// block, and a zstd block must be whole frames, each block inside it,
// decompressing to a size that can be the one the header implies. What
// passes is decompressed; gzip and zlib (zarrita's, through the platform's
// DecompressionStream) have no such framing to read and are not checked
// here. Neither check proves the compressed data sound: the compressor
// still decides that (numcodecs.js's blosc does not: a blosc block whose
// header is sound but whose compressed data is damaged reads as whatever
// its output buffer held, docs/reliability.md), and the decoded length is
// checked after it.

const BLOSC_HEADER = 16;
// c-blosc 1's compressor codes (flags bits 5..7): blosclz, lz4 (and lz4hc),
// snappy, zlib, zstd; its largest block (blosc.h).
const BLOSC_CODECS = 5;
const BLOSC_MAX_BLOCKSIZE = Math.floor((2 ** 31 - 1 - 255 * 4) / 3);
const ZSTD_MAGIC = 0xfd2fb528;
const ZSTD_BLOCK_MAX = 128 * 1024;

const u32 = (b, at) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/**
 * Why `payload`, compressed by `name`, cannot be a block of `expected`
 * decompressed bytes, as { code, message }; undefined when it can.
 * @param {string} name the compressor's codec name
 * @param {Uint8Array} payload the block after its header
 * @param {number} expected the bytes the header's shape implies
 */
export function framingProblem(name, payload, expected) {
  if (name === "blosc") return bloscProblem(payload, expected);
  if (name === "zstd") return zstdProblem(payload, expected);
  return undefined;
}

// The blosc 1 header (16 bytes, little-endian): version, compressor
// version, flags, type size, nbytes, block size, cbytes. c-blosc refuses a
// header these checks refuse (blosc.c, blosc_run_decompression_with_context);
// numcodecs.js would then hand back its output buffer unwritten.
function bloscProblem(b, expected) {
  if (b.length < BLOSC_HEADER) {
    return { code: "LENGTH_MISMATCH", message: `its blosc data needs a header of ${BLOSC_HEADER} bytes, got ${b.length}` };
  }
  const [version, codecVersion, flags, typesize] = b;
  const nbytes = u32(b, 4);
  const blocksize = u32(b, 8);
  const cbytes = u32(b, 12);
  if (cbytes < BLOSC_HEADER || cbytes > b.length) {
    return { code: "LENGTH_MISMATCH", message: `its blosc header says ${cbytes} compressed bytes, but the block has ${b.length} after its header` };
  }
  if (nbytes !== expected) {
    return { code: "LENGTH_MISMATCH", message: `its blosc header says it decompresses to ${nbytes} bytes, but its shape holds ${expected}` };
  }
  if (nbytes === 0) return undefined;
  const codec = flags >> 5;
  const blocks = Math.ceil(nbytes / blocksize);
  // Stored uncompressed (flag 0x02), the data is copied: no compressor is asked.
  const copied = (flags & 0x02) !== 0;
  const refused =
    typesize === 0 ? "a type size of 0"
    : blocksize === 0 || blocksize > nbytes || blocksize > BLOSC_MAX_BLOCKSIZE ? `a block size of ${blocksize} for ${nbytes} bytes`
    : version !== 2 ? `format version ${version} (blosc 1 writes 2)`
    : flags & 0x08 ? "a reserved flag set"
    : copied ? (cbytes !== nbytes + BLOSC_HEADER ? `${cbytes} bytes for ${nbytes} stored uncompressed` : undefined)
    : codec >= BLOSC_CODECS ? `compressor code ${codec} (blosc has 0 to 4)`
    : codecVersion !== 1 ? `compressor format version ${codecVersion} (blosc 1 writes 1)`
    : blocks > (cbytes - BLOSC_HEADER) / 4 ? `${blocks} blocks, whose offsets alone need more than its ${cbytes} bytes`
    : undefined;
  if (refused) return { code: "INVALID_INPUT", message: `its blosc header has ${refused}, which c-blosc refuses` };
  if (copied) return undefined;
  // Each block's offset, then each of its splits' size and data, inside
  // cbytes (blosc.c, blosc_d): a block split by type size where the header
  // allows it and the block is whole and at least 128 values.
  const i32 = (at) => u32(b, at) | 0;
  const leftover = nbytes % blocksize;
  for (let j = 0; j < blocks; j++) {
    const last = j === blocks - 1 && leftover > 0;
    const size = last ? leftover : blocksize;
    const splits = !(flags & 0x10) && typesize <= 16 && Math.floor(size / typesize) >= 128 && !last ? typesize : 1;
    let at = i32(BLOSC_HEADER + 4 * j);
    for (let split = 0; split < splits; split++) {
      const compressed = at >= 0 && at <= cbytes - 4 ? i32(at) : -1;
      if (compressed < 0 || compressed > cbytes - at - 4) {
        return { code: "INVALID_INPUT", message: `its blosc block ${j} lies past its ${cbytes} bytes, which c-blosc refuses` };
      }
      at += 4 + compressed;
    }
  }
  return undefined;
}

// RFC 8878: frames (and skippable frames), one after another; in each, a
// frame header, then blocks of 3-byte headers (raw, RLE or compressed) up
// to the last, then maybe a checksum.
function zstdProblem(b, expected) {
  const cut = (what) => ({ code: "LENGTH_MISMATCH", message: `its zstd data ends inside ${what} (${b.length} bytes after the block header)` });
  let at = 0;
  let least = 0; // decompressed bytes, at least and at most
  let most = 0;
  let frames = 0;
  while (at < b.length) {
    if (b.length - at < 4) return cut("a frame's magic number");
    const magic = u32(b, at);
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      if (b.length - at < 8) return cut("a skippable frame's header");
      at += 8 + u32(b, at + 4);
      if (at > b.length) return cut("a skippable frame");
      continue;
    }
    if (magic !== ZSTD_MAGIC) {
      return { code: "INVALID_INPUT", message: `its zstd data has no frame at byte ${at} (magic number 0x${magic.toString(16).padStart(8, "0")}, expected 0xfd2fb528)` };
    }
    at += 4;
    if (at >= b.length) return cut("a frame header");
    const descriptor = b[at++];
    if (descriptor & 0x08) return { code: "INVALID_INPUT", message: "its zstd frame header sets the reserved bit" };
    const single = (descriptor >> 5) & 1;
    const fcsBytes = [single, 2, 4, 8][descriptor >> 6];
    const dictBytes = [0, 1, 2, 4][descriptor & 3];
    const checksum = (descriptor >> 2) & 1;
    if (b.length - at < (single ? 0 : 1) + dictBytes + fcsBytes) return cut("a frame header");
    let window = Infinity;
    if (!single) {
      const w = b[at++];
      const base = 2 ** (10 + (w >> 3));
      window = base + (base / 8) * (w & 7);
    }
    at += dictBytes;
    let contentSize;
    if (fcsBytes > 0) {
      contentSize = 0;
      for (let i = fcsBytes - 1; i >= 0; i--) contentSize = contentSize * 256 + b[at + i];
      if (fcsBytes === 2) contentSize += 256;
      at += fcsBytes;
      if (single) window = contentSize;
    }
    const blockMax = Math.min(window, ZSTD_BLOCK_MAX);
    let frameLeast = 0;
    let frameMost = 0;
    for (let last = 0; !last; ) {
      if (b.length - at < 3) return cut("a block header");
      const h = b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
      at += 3;
      last = h & 1;
      const type = (h >> 1) & 3;
      const size = h >>> 3;
      if (type === 3) return { code: "INVALID_INPUT", message: "its zstd data has a block of the reserved type 3" };
      const stored = type === 1 ? 1 : size;
      if (b.length - at < stored) return cut("a block");
      at += stored;
      if (type === 2) {
        frameMost += blockMax;
      } else {
        frameLeast += size;
        frameMost += size;
      }
    }
    if (checksum) {
      if (b.length - at < 4) return cut("a frame's checksum");
      at += 4;
    }
    least += contentSize ?? frameLeast;
    most += contentSize ?? frameMost;
    frames++;
  }
  if (frames === 0) return { code: "LENGTH_MISMATCH", message: "its zstd data holds no frame" };
  if (least > expected || most < expected) {
    const says = least === most ? `${least} bytes` : `${least} to ${most} bytes`;
    return { code: "LENGTH_MISMATCH", message: `its zstd data decompresses to ${says}, but its shape holds ${expected}` };
  }
  return undefined;
}
