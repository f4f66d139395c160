// Compressed chunks (src/compress/): frames other implementations wrote
// decode exactly (tests/fixtures/compressed, scripts/make-compressed-fixtures.py:
// Debian's numcodecs, zstd CLI and libblosc); every hostile frame gets its
// error code without writing outside the output or crashing (ASan, UBSan),
// and the Decompressor decodes the next good frame right; the encoders
// round-trip, and Debian's numcodecs decodes what they write.
#include <gtest/gtest.h>
#include <unistd.h>

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compress/compressor.h"
#include "compress/decompressor.h"

#ifndef ZCW_FIXTURES_DIR
#error "ZCW_FIXTURES_DIR comes from CMakeLists.txt"
#endif

namespace zcw {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  EXPECT_TRUE(f.good()) << path;
  return Bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

Bytes random_data(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

void write_file(const std::string& path, const Bytes& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

Compression kind_named(const std::string& name) {
  static const std::map<std::string, Compression> kinds = {{"zstd", Compression::kZstd},
                                                           {"gzip", Compression::kGzip},
                                                           {"zlib", Compression::kZlib},
                                                           {"lz4", Compression::kLz4},
                                                           {"blosc", Compression::kBlosc}};
  return kinds.at(name);
}

struct Fixture {
  std::string name;
  Compression kind;
  Bytes frame;
  Bytes decoded;
};

// tests/fixtures/compressed/manifest.tsv: frame, kind, decoded bytes, writer.
const std::vector<Fixture>& fixtures() {
  static const std::vector<Fixture> all = [] {
    std::vector<Fixture> out;
    const std::string dir = std::string(ZCW_FIXTURES_DIR) + "/compressed/";
    std::ifstream manifest(dir + "manifest.tsv");
    std::string line;
    while (std::getline(manifest, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      std::string frame, kind, decoded;
      std::getline(fields, frame, '\t');
      std::getline(fields, kind, '\t');
      std::getline(fields, decoded, '\t');
      out.push_back({frame, kind_named(kind), read_file(dir + frame), read_file(dir + decoded)});
    }
    return out;
  }();
  return all;
}

const Fixture& fixture(const std::string& name) {
  for (const Fixture& f : fixtures()) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no fixture " << name;
  std::abort();
}

struct Result {
  Status status;
  Bytes out;
};

// The exact decode into a buffer of exactly out_size bytes (ASan catches
// any write past it).
Result decode(Decompressor& d, Compression kind, const Bytes& in, uint64_t out_size) {
  Result r;
  r.out.assign(out_size, 0xEE);
  r.status = d.decompress(kind, in.data(), in.size(), r.out.data(), out_size);
  return r;
}

Result bounded(Decompressor& d, Compression kind, const Bytes& in, uint64_t max_out) {
  MallocBytes out;
  Result r;
  r.status = d.decompress_bounded(kind, in.data(), in.size(), max_out, &out);
  r.out.assign(out.data(), out.data() + out.size());
  return r;
}

// The decoder decodes a good frame right after whatever came before.
void expect_still_decodes(Decompressor& d) {
  for (const char* name : {"zstd-l3.zst", "gzip-l1.gz", "zlib-l1.zz", "lz4-a1.lz4", "blosc-zstd-shuffle-t2.blosc"}) {
    const Fixture& f = fixture(name);
    const Result r = decode(d, f.kind, f.frame, f.decoded.size());
    ASSERT_TRUE(r.status.ok()) << name << ": " << r.status.message();
    ASSERT_EQ(r.out, f.decoded) << name;
  }
}

void expect_code(const Result& r, ErrorCode code, const std::string& what) {
  EXPECT_EQ(error_code_name(r.status.code()), std::string(error_code_name(code))) << what << ": " << r.status.message();
}

TEST(DecompressTest, FixturesCoverEveryCodecCnameAndShuffle) {
  std::map<std::string, int> seen;
  for (const Fixture& f : fixtures()) ++seen[compression_name(f.kind)];
  EXPECT_EQ(seen.size(), 5u);
  for (const char* cname : {"blosclz", "lz4", "lz4hc", "zlib", "zstd"}) {
    for (const char* shuffle : {"noshuffle", "shuffle", "bitshuffle"}) {
      fixture(std::string("blosc-") + cname + "-" + shuffle + "-t2.blosc");
    }
  }
  for (const char* name : {"blosc-lz4-shuffle-t1.blosc", "blosc-lz4-shuffle-t4.blosc", "blosc-lz4-shuffle-t8.blosc",
                           "blosc-zstd-bitshuffle-t8.blosc", "blosc-memcpyed-clevel0.blosc",
                           "blosc-lz4-bitshuffle-t4-1001.blosc", "zstd-streamed.zst", "zstd-two-frames.zst",
                           "gzip-two-members.gz"}) {
    fixture(name);
  }
}

TEST(DecompressTest, EveryFixtureDecodesExactly) {
  Decompressor d;
  for (const Fixture& f : fixtures()) {
    const Result r = decode(d, f.kind, f.frame, f.decoded.size());
    ASSERT_TRUE(r.status.ok()) << f.name << ": " << r.status.message();
    EXPECT_EQ(r.out, f.decoded) << f.name;
    const Result b = bounded(d, f.kind, f.frame, f.decoded.size());
    ASSERT_TRUE(b.status.ok()) << f.name << " bounded: " << b.status.message();
    EXPECT_EQ(b.out, f.decoded) << f.name << " bounded";
    const Result roomy = bounded(d, f.kind, f.frame, uint64_t{1} << 30);
    ASSERT_TRUE(roomy.status.ok()) << f.name << " bounded by 1 GiB: " << roomy.status.message();
    EXPECT_EQ(roomy.out, f.decoded) << f.name << " bounded by 1 GiB";
  }
}

TEST(DecompressTest, AWrongChunkSizeEitherWayIsALengthMismatch) {
  Decompressor d;
  for (const Fixture& f : fixtures()) {
    const uint64_t n = f.decoded.size();
    expect_code(decode(d, f.kind, f.frame, n + 1), ErrorCode::kLengthMismatch, f.name + " one byte more");
    expect_code(decode(d, f.kind, f.frame, n + 100000), ErrorCode::kLengthMismatch, f.name + " far more");
    if (n > 0) {
      expect_code(decode(d, f.kind, f.frame, n - 1), ErrorCode::kLengthMismatch, f.name + " one byte less");
      expect_code(decode(d, f.kind, f.frame, 0), ErrorCode::kLengthMismatch, f.name + " no bytes");
      const Result b = bounded(d, f.kind, f.frame, n - 1);
      expect_code(b, ErrorCode::kLengthMismatch, f.name + " bounded one byte short");
      EXPECT_TRUE(b.out.empty());
    }
  }
  expect_still_decodes(d);
}

// Each size is named for what it is: a frame's claim or what it decodes
// to, the chunk's decoded size (the metadata's), the chunk's own bytes.
// ("lz4: the header says 1000 bytes, the chunk has 524288" read as if the
// chunk held 524288 bytes, where that was its decoded size.)
TEST(DecompressTest, TheMessagesNameTheCodecAndBothSizes) {
  Decompressor d;
  const Fixture& z = fixture("zstd-l3.zst");
  EXPECT_EQ(decode(d, z.kind, z.frame, 2048).status.message(),
            "zstd: the frame says it decodes to 4096 bytes (its content size), the chunk's decoded size is 2048 bytes");
  const Fixture& s = fixture("zstd-streamed.zst");
  EXPECT_EQ(decode(d, s.kind, s.frame, 2048).status.message(),
            "zstd: the frame decodes to more than the chunk's decoded size of 2048 bytes");
  EXPECT_EQ(decode(d, s.kind, s.frame, 8192).status.message(), "zstd: the frame decodes to 4096 bytes, the chunk's decoded size is 8192 bytes");
  const Fixture& l = fixture("lz4-a1.lz4");
  EXPECT_EQ(decode(d, l.kind, l.frame, 4095).status.message(), "lz4: the header says it decodes to 4096 bytes, the chunk's decoded size is 4095 bytes");
  const Fixture& b = fixture("blosc-lz4-shuffle-t2.blosc");
  EXPECT_EQ(decode(d, b.kind, b.frame, 8192).status.message(),
            "blosc: the header says it decodes to 4096 bytes (nbytes), the chunk's decoded size is 8192 bytes");
  const Fixture& g = fixture("gzip-l1.gz");
  EXPECT_EQ(decode(d, g.kind, g.frame, 100).status.message(), "gzip: the frame decodes to 4096 bytes, the chunk's decoded size is 100 bytes");
  Bytes cut(g.frame.begin(), g.frame.end() - 9);  // into the DEFLATE data's last bytes
  EXPECT_EQ(decode(d, g.kind, cut, 4096).status.message(), "gzip: the DEFLATE data is corrupt or truncated");
}

TEST(DecompressTest, EveryTruncationFails) {
  Decompressor d;
  for (const Fixture& f : fixtures()) {
    if (f.name == "gzip-padded.gz") continue;  // its padding may be cut: it is zeros
    const size_t step = f.frame.size() > 600 ? 7 : 1;
    for (size_t cut = 0; cut < f.frame.size(); cut += step) {
      const Bytes head(f.frame.begin(), f.frame.begin() + static_cast<long>(cut));
      const Result r = decode(d, f.kind, head, f.decoded.size());
      ASSERT_FALSE(r.status.ok()) << f.name << " cut to " << cut;
      const ErrorCode c = r.status.code();
      // zstd reads a checksum cut short as a wrong one.
      EXPECT_TRUE(c == ErrorCode::kCorruptData || c == ErrorCode::kLengthMismatch ||
                  (c == ErrorCode::kChecksumMismatch && f.name == "zstd-checksum.zst"))
          << f.name << " cut to " << cut << ": " << r.status.message();
      // A cut at a frame or member boundary is a valid shorter frame, so
      // the bounded decode (which knows no size) may succeed; it must not
      // crash or write out of bounds.
      bounded(d, f.kind, head, uint64_t{1} << 24);
    }
    // Cut by one byte: the frame's own fault, whatever kind.
    if (!f.frame.empty()) {
      const Bytes head(f.frame.begin(), f.frame.end() - 1);
      const Result r = decode(d, f.kind, head, f.decoded.size());
      EXPECT_FALSE(r.status.ok()) << f.name;
    }
  }
  expect_still_decodes(d);
}

TEST(DecompressTest, TruncatedFramesAreCorruptData) {
  Decompressor d;
  for (const char* name : {"zstd-l3.zst", "zstd-streamed.zst", "gzip-l1.gz", "zlib-l1.zz", "lz4-a1.lz4",
                           "blosc-lz4-shuffle-t2.blosc", "blosc-zstd-blocks.blosc", "blosc-memcpyed-clevel0.blosc"}) {
    const Fixture& f = fixture(name);
    for (size_t less : {1, 2, 5, 9}) {
      const Bytes head(f.frame.begin(), f.frame.end() - static_cast<long>(less));
      expect_code(decode(d, f.kind, head, f.decoded.size()), ErrorCode::kCorruptData,
                  std::string(name) + " less " + std::to_string(less));
    }
  }
  expect_still_decodes(d);
}

TEST(DecompressTest, GarbageIsRefused) {
  Decompressor d;
  for (int kind = 0; kind < kCompressionKinds; ++kind) {
    for (uint32_t seed = 0; seed < 200; ++seed) {
      std::mt19937 rng(seed * 31 + static_cast<uint32_t>(kind));
      Bytes junk(rng() % 300);
      for (auto& b : junk) b = static_cast<uint8_t>(rng());
      const uint64_t out_size = rng() % 5000;
      const Result r = decode(d, static_cast<Compression>(kind), junk, out_size);
      // Random bytes can only decode where they happen to be a frame of
      // exactly this size: never, with these seeds.
      EXPECT_FALSE(r.status.ok()) << compression_name(static_cast<Compression>(kind)) << " seed " << seed;
      bounded(d, static_cast<Compression>(kind), junk, 1 << 20);
    }
  }
  expect_still_decodes(d);
}

// Adler-32 as RFC 1950 defines it, written out here as the reference.
uint32_t adler32_reference(const Bytes& data) {
  uint32_t a = 1, b = 0;
  for (uint8_t byte : data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

TEST(DecompressTest, FlippedBytesNeverPassAChecksumWithWrongData) {
  Decompressor d;
  for (const Fixture& f : fixtures()) {
    // CRC-32 and zstd's XXH64 catch these flips; Adler-32 is weaker (a flip
    // near the end of a zlib stream can change three bytes and keep the
    // sum, and Python's zlib then decodes them too), so there the promise
    // is that the data always has the stream's Adler-32.
    const bool checksummed = f.kind == Compression::kGzip || f.name == "zstd-checksum.zst";
    const size_t step = f.frame.size() > 400 ? 3 : 1;
    for (size_t at = 0; at < f.frame.size(); at += step) {
      for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
        Bytes bad = f.frame;
        bad[at] ^= flip;
        for (const Result& r : {decode(d, f.kind, bad, f.decoded.size()), bounded(d, f.kind, bad, 1 << 16)}) {
          if (!r.status.ok()) continue;
          if (checksummed) EXPECT_EQ(r.out, f.decoded) << f.name << " byte " << at;
          if (f.kind == Compression::kZlib) {
            const uint8_t* sum = bad.data() + bad.size() - 4;
            EXPECT_EQ(adler32_reference(r.out),
                      uint32_t{sum[0]} << 24 | uint32_t{sum[1]} << 16 | uint32_t{sum[2]} << 8 | sum[3])
                << f.name << " byte " << at;
          }
        }
      }
    }
  }
  expect_still_decodes(d);
}

// Frames written here to be hostile, from good ones.
Bytes zstd_frame(const Bytes& data, int level, bool content_size, bool checksum) {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum ? 1 : 0);
  Bytes out(ZSTD_compressBound(data.size()));
  size_t n = 0;
  if (content_size) {
    n = ZSTD_compress2(c, out.data(), out.size(), data.data(), data.size());
  } else {
    // A streaming writer: the frame starts before the size is known.
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    ZSTD_inBuffer i{data.data(), data.size(), 0};
    ZSTD_compressStream2(c, &o, &i, ZSTD_e_continue);
    while (ZSTD_compressStream2(c, &o, &i, ZSTD_e_end) != 0) {
    }
    n = o.pos;
  }
  ZSTD_freeCCtx(c);
  out.resize(n);
  return out;
}

Bytes encode(Compression kind, const CompressionOptions& o, const Bytes& data) {
  Compressor c;
  uint64_t bound = 0;
  EXPECT_TRUE(Compressor::bound(kind, o, data.size(), &bound).ok());
  Bytes out(bound);
  uint64_t written = 0;
  const Status s = c.compress(kind, o, data.data(), data.size(), out.data(), out.size(), &written);
  EXPECT_TRUE(s.ok()) << s.message();
  out.resize(written);
  return out;
}

uint32_t le32_at(const Bytes& b, size_t at) {
  return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 | uint32_t{b[at + 3]} << 24;
}

void put_le32(Bytes* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

TEST(DecompressTest, BombsStopAtTheChunkAndTheLimit) {
  Decompressor d;
  const Bytes zeros(size_t{64} << 20, 0);  // 64 MiB of zeros: a few KiB compressed
  CompressionOptions o;
  o.level = 1;
  const std::map<std::string, std::pair<Compression, Bytes>> bombs = {
      {"zstd", {Compression::kZstd, zstd_frame(zeros, 1, true, false)}},
      {"zstd streamed", {Compression::kZstd, zstd_frame(zeros, 1, false, false)}},
      {"gzip", {Compression::kGzip, encode(Compression::kGzip, o, zeros)}},
      {"zlib", {Compression::kZlib, encode(Compression::kZlib, o, zeros)}},
      {"lz4", {Compression::kLz4, encode(Compression::kLz4, o, zeros)}},
  };
  for (const auto& [name, bomb] : bombs) {
    EXPECT_LT(bomb.second.size(), 400000u) << name;
    expect_code(decode(d, bomb.first, bomb.second, 65536), ErrorCode::kLengthMismatch, name);
    const Result b = bounded(d, bomb.first, bomb.second, 1 << 20);
    expect_code(b, ErrorCode::kLengthMismatch, name + " bounded by 1 MiB");
    EXPECT_TRUE(b.out.empty());
  }
  // A blosc frame of 64 MiB of zeros (blosc's largest block is far less).
  CompressionOptions bo;
  bo.level = 9;
  bo.blosc_inner = BloscInner::kZstd;
  const Bytes blosc_bomb = encode(Compression::kBlosc, bo, zeros);
  expect_code(decode(d, Compression::kBlosc, blosc_bomb, 65536), ErrorCode::kLengthMismatch, "blosc");
  expect_code(bounded(d, Compression::kBlosc, blosc_bomb, 1 << 20), ErrorCode::kLengthMismatch, "blosc bounded");
  // Claims past anything: a zstd header saying 2^40 bytes, an lz4 header 4 GiB - 1.
  Bytes lz4_claim = fixture("lz4-a1.lz4").frame;
  put_le32(&lz4_claim, 0, 0xffffffff);
  expect_code(bounded(d, Compression::kLz4, lz4_claim, 1 << 20), ErrorCode::kCorruptData, "lz4 claim");
  expect_code(decode(d, Compression::kLz4, lz4_claim, 4096), ErrorCode::kLengthMismatch, "lz4 claim exact");
  expect_still_decodes(d);
}

// A bounded decode takes a frame's declared size only as far as the
// frame's bytes could decode to (the most a format's structure allows),
// and allocates nothing for a claim beyond it: a 17-byte zstd frame
// claiming 1 GiB was a 1 GiB allocation within a limit of 2 GiB.
TEST(DecompressTest, BoundedClaimsBeyondWhatTheBytesCanHoldAllocateNothing) {
  Decompressor d;
  // RFC 8878 by hand: magic, a descriptor (8-byte content size, single
  // segment), the content size, one last RLE block of 128 KiB of one byte.
  Bytes zstd = {0x28, 0xb5, 0x2f, 0xfd, 0xe0};
  for (int i = 0; i < 8; ++i) zstd.push_back(static_cast<uint8_t>((uint64_t{1} << 30) >> (8 * i)));
  const uint32_t block = 1u | (1u << 1) | (131072u << 3);
  for (int i = 0; i < 3; ++i) zstd.push_back(static_cast<uint8_t>(block >> (8 * i)));
  zstd.push_back(7);
  ASSERT_EQ(zstd.size(), 17u);
  const Result z = bounded(d, Compression::kZstd, zstd, uint64_t{1} << 31);
  expect_code(z, ErrorCode::kCorruptData, "zstd claiming 1 GiB");
  EXPECT_EQ(z.status.message(),
            "zstd: the frame says it decodes to 1073741824 bytes, more than its 17 bytes can hold (at most 32768 per "
            "byte: 557056)");
  EXPECT_TRUE(z.out.empty());
  Bytes blosc = fixture("blosc-zstd-shuffle-t2.blosc").frame;
  put_le32(&blosc, 4, 1u << 30);  // nbytes
  const Result b = bounded(d, Compression::kBlosc, blosc, uint64_t{1} << 31);
  EXPECT_NE(b.status.code(), ErrorCode::kOk);
  EXPECT_TRUE(b.out.empty());
  EXPECT_NE(b.status.message().find("1073741824"), std::string::npos) << b.status.message();

  // The bound holds for real frames of the highest ratios: 64 MiB of zeros
  // from zstd, blosc with zstd inside, lz4 and gzip, each decoded whole.
  const Bytes zeros(size_t{64} << 20, 0);
  CompressionOptions o;
  o.level = 9;
  CompressionOptions bo = o;
  bo.blosc_inner = BloscInner::kZstd;
  const std::map<std::string, std::pair<Compression, Bytes>> dense = {
      {"zstd", {Compression::kZstd, zstd_frame(zeros, 19, true, false)}},
      {"blosc zstd", {Compression::kBlosc, encode(Compression::kBlosc, bo, zeros)}},
      {"lz4", {Compression::kLz4, encode(Compression::kLz4, o, zeros)}},
      {"gzip", {Compression::kGzip, encode(Compression::kGzip, o, zeros)}},
  };
  for (const auto& [name, frame] : dense) {
    const Result r = bounded(d, frame.first, frame.second, uint64_t{1} << 27);
    ASSERT_TRUE(r.status.ok()) << name << " (" << frame.second.size() << " bytes): " << r.status.message();
    EXPECT_EQ(r.out.size(), zeros.size()) << name;
    EXPECT_TRUE(std::all_of(r.out.begin(), r.out.end(), [](uint8_t v) { return v == 0; })) << name;
  }
  expect_still_decodes(d);
}

TEST(DecompressTest, ZstdLyingHeadersAndChecksums) {
  Decompressor d;
  const Fixture& f = fixture("zstd-l3.zst");
  // numcodecs' frame: single segment, a 2-byte content size (the size - 256)
  // right after the frame header descriptor.
  ZSTD_frameHeader h;
  ASSERT_EQ(ZSTD_getFrameHeader(&h, f.frame.data(), f.frame.size()), 0u);
  ASSERT_EQ(h.frameContentSize, 4096u);
  ASSERT_EQ(f.frame[4] & 0xe3, 0x60);  // FCS flag 1, single segment, no dictionary ID
  auto saying = [&](uint32_t size) {
    Bytes b = f.frame;
    b[5] = static_cast<uint8_t>((size - 256) & 0xff);
    b[6] = static_cast<uint8_t>((size - 256) >> 8);
    return b;
  };
  expect_code(decode(d, f.kind, saying(4095), 4095), ErrorCode::kLengthMismatch, "zstd says 4095, decodes 4096");
  expect_code(decode(d, f.kind, saying(4097), 4097), ErrorCode::kCorruptData, "zstd says 4097, decodes 4096");
  expect_code(bounded(d, f.kind, saying(4097), 1 << 20), ErrorCode::kCorruptData, "zstd bounded says 4097");

  const Fixture& c = fixture("zstd-checksum.zst");
  Bytes bad_sum = c.frame;
  bad_sum.back() ^= 0x55;  // the checksum is the frame's last 4 bytes
  expect_code(decode(d, c.kind, bad_sum, 4096), ErrorCode::kChecksumMismatch, "zstd checksum");
  EXPECT_EQ(decode(d, c.kind, bad_sum, 4096).status.message(),
            "zstd: the frame's content checksum does not match the data it decodes to");
  Bytes trailing = f.frame;
  trailing.insert(trailing.end(), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  expect_code(decode(d, f.kind, trailing, 4096), ErrorCode::kCorruptData, "zstd trailing garbage");
  Bytes short_trailing = f.frame;
  short_trailing.push_back(0);
  expect_code(decode(d, f.kind, short_trailing, 4096), ErrorCode::kCorruptData, "zstd one byte after");
  expect_code(decode(d, f.kind, Bytes{}, 0), ErrorCode::kCorruptData, "zstd empty chunk");
  // The same frame declaring dictionary 7 (a 1-byte dictionary ID after
  // the descriptor): it cannot be decoded without that dictionary.
  Bytes dict = f.frame;
  dict[4] |= 0x01;
  dict.insert(dict.begin() + 5, uint8_t{7});
  expect_code(decode(d, f.kind, dict, 4096), ErrorCode::kUnsupportedCodec, "zstd dictionary");
  EXPECT_EQ(decode(d, f.kind, dict, 4096).status.message(),
            "zstd: the frame needs dictionary 7; frames compressed with a dictionary are not supported");
  expect_still_decodes(d);
}

TEST(DecompressTest, GzipAndZlibChecksumsHeadersAndTrailers) {
  Decompressor d;
  const Fixture& g = fixture("gzip-l1.gz");
  Bytes bad_crc = g.frame;
  bad_crc[bad_crc.size() - 8] ^= 1;
  expect_code(decode(d, g.kind, bad_crc, 4096), ErrorCode::kChecksumMismatch, "gzip CRC");
  EXPECT_NE(decode(d, g.kind, bad_crc, 4096).status.message().find("gzip: member 1's CRC-32 is 0x"), std::string::npos);
  Bytes bad_size = g.frame;
  bad_size[bad_size.size() - 4] ^= 1;
  expect_code(decode(d, g.kind, bad_size, 4096), ErrorCode::kChecksumMismatch, "gzip ISIZE");
  EXPECT_EQ(decode(d, g.kind, bad_size, 4096).status.message(),
            "gzip: member 1's trailer says 4097 bytes (ISIZE), it decodes to 4096");
  Bytes garbage = g.frame;
  garbage.insert(garbage.end(), {'j', 'u', 'n', 'k'});
  expect_code(decode(d, g.kind, garbage, 4096), ErrorCode::kCorruptData, "gzip trailing garbage");
  EXPECT_EQ(decode(d, g.kind, garbage, 4096).status.message(), "gzip: 4 bytes after member 1 that are not another member");
  Bytes method = g.frame;
  method[2] = 7;
  expect_code(decode(d, g.kind, method, 4096), ErrorCode::kCorruptData, "gzip method");
  Bytes reserved = g.frame;
  reserved[3] |= 0x80;
  expect_code(decode(d, g.kind, reserved, 4096), ErrorCode::kCorruptData, "gzip reserved flags");
  Bytes extra = g.frame;  // FEXTRA of 65535 bytes that are not there
  extra[3] |= 0x04;
  expect_code(decode(d, g.kind, extra, 4096), ErrorCode::kCorruptData, "gzip FEXTRA past the end");

  const Fixture& z = fixture("zlib-l1.zz");
  Bytes bad_adler = z.frame;
  bad_adler.back() ^= 1;
  expect_code(decode(d, z.kind, bad_adler, 4096), ErrorCode::kChecksumMismatch, "zlib Adler-32");
  Bytes after = z.frame;
  after.push_back(0);
  expect_code(decode(d, z.kind, after, 4096), ErrorCode::kCorruptData, "zlib trailing byte");
  EXPECT_EQ(decode(d, z.kind, after, 4096).status.message(), "zlib: 1 bytes after the end of the stream");
  Bytes header = z.frame;
  header[1] ^= 1;  // the check bits
  expect_code(decode(d, z.kind, header, 4096), ErrorCode::kCorruptData, "zlib header check");
  // FDICT: 0x78 0xbb is a valid header (check bits included) with a dictionary.
  Bytes dict = {0x78, 0xbb, 0, 0, 0, 1, 0x03, 0x00};
  expect_code(decode(d, z.kind, dict, 0), ErrorCode::kUnsupportedCodec, "zlib preset dictionary");
  expect_still_decodes(d);
}

TEST(DecompressTest, Lz4LyingHeaders) {
  Decompressor d;
  const Fixture& f = fixture("lz4-a1.lz4");
  Bytes less = f.frame;
  put_le32(&less, 0, 4095);  // the block still decodes to 4096
  expect_code(decode(d, f.kind, less, 4095), ErrorCode::kCorruptData, "lz4 header one less");
  Bytes more = f.frame;
  put_le32(&more, 0, 4097);
  expect_code(decode(d, f.kind, more, 4097), ErrorCode::kLengthMismatch, "lz4 header one more");
  EXPECT_EQ(decode(d, f.kind, more, 4097).status.message(),
            "lz4: the block decodes to 4096 bytes, where its header and the chunk's decoded size say 4097");
  expect_code(decode(d, f.kind, Bytes{0, 0, 0, 0}, 0), ErrorCode::kCorruptData, "lz4 header alone");
  expect_still_decodes(d);
}

TEST(DecompressTest, BloscHeadersOffsetsAndStreamsAreChecked) {
  Decompressor d;
  const Fixture& f = fixture("blosc-lz4-blocks.blosc");  // 5 blocks of 2048, typesize 2, shuffle, not split
  const uint64_t n = f.decoded.size();
  auto with = [&](size_t at, uint32_t v) {
    Bytes b = f.frame;
    put_le32(&b, at, v);
    return b;
  };
  auto byte = [&](size_t at, uint8_t v) {
    Bytes b = f.frame;
    b[at] = v;
    return b;
  };
  const uint32_t cbytes = static_cast<uint32_t>(f.frame.size());
  expect_code(decode(d, f.kind, with(12, cbytes + 100), n), ErrorCode::kCorruptData, "cbytes past the frame");
  expect_code(decode(d, f.kind, with(12, cbytes - 1), n), ErrorCode::kCorruptData, "cbytes short of the frame");
  expect_code(decode(d, f.kind, with(4, static_cast<uint32_t>(n) + 2), n), ErrorCode::kLengthMismatch, "nbytes");
  expect_code(decode(d, f.kind, with(8, 0), n), ErrorCode::kCorruptData, "blocksize 0");
  expect_code(decode(d, f.kind, with(8, static_cast<uint32_t>(n) + 1), n), ErrorCode::kCorruptData, "blocksize > nbytes");
  expect_code(decode(d, f.kind, with(8, 0x80000000u), n), ErrorCode::kCorruptData, "negative blocksize");
  const Fixture& split = fixture("blosc-lz4-shuffle-t2.blosc");  // one block of 4096, split in two
  Bytes odd_split = split.frame;
  put_le32(&odd_split, 8, 4095);
  expect_code(decode(d, split.kind, odd_split, 4096), ErrorCode::kCorruptData, "split block not a multiple of typesize");
  EXPECT_EQ(decode(d, split.kind, odd_split, 4096).status.message(),
            "blosc: a block split into 2 streams has 4095 bytes, not a multiple of the typesize");
  expect_code(decode(d, f.kind, with(16, 4), n), ErrorCode::kCorruptData, "block offset into the header");
  expect_code(decode(d, f.kind, with(20, cbytes), n), ErrorCode::kCorruptData, "block offset at the end");
  expect_code(decode(d, f.kind, with(24, 0xfffffff0u), n), ErrorCode::kCorruptData, "negative block offset");
  // A stream's length past the frame's end.
  const uint32_t first_block = static_cast<uint32_t>(f.frame[16] | f.frame[17] << 8);
  expect_code(decode(d, f.kind, with(first_block, cbytes), n), ErrorCode::kCorruptData, "stream length past the end");
  EXPECT_NE(decode(d, f.kind, with(first_block, cbytes), n).status.message().find("block 0's stream 0 says it has"),
            std::string::npos);
  // A stream one byte shorter than it says: the next length is misread.
  Bytes stream = with(first_block, le32_at(f.frame, first_block) - 1);
  expect_code(decode(d, f.kind, stream, n), ErrorCode::kCorruptData, "stream length one short");
  expect_code(decode(d, f.kind, byte(3, 0), n), ErrorCode::kCorruptData, "typesize 0");
  expect_code(decode(d, f.kind, byte(0, 3), n), ErrorCode::kUnsupportedCodec, "c-blosc2 version");
  expect_code(decode(d, f.kind, byte(0, 9), n), ErrorCode::kCorruptData, "unknown version");
  expect_code(decode(d, f.kind, byte(2, f.frame[2] | 0x08), n), ErrorCode::kUnsupportedCodec, "future flags");
  expect_code(decode(d, f.kind, byte(2, (f.frame[2] & 0x1f) | (2 << 5)), n), ErrorCode::kUnsupportedCodec, "snappy");
  EXPECT_EQ(decode(d, f.kind, byte(2, (f.frame[2] & 0x1f) | (2 << 5)), n).status.message(),
            "blosc: the frame is compressed with snappy, which is not built in (blosclz, lz4, lz4hc, zlib and zstd are)");
  expect_code(decode(d, f.kind, byte(2, (f.frame[2] & 0x1f) | (6 << 5)), n), ErrorCode::kCorruptData, "codec 6");
  expect_code(decode(d, f.kind, byte(1, 2), n), ErrorCode::kUnsupportedCodec, "lz4 format version 2");
  // Offsets of two blocks swapped: within the frame, so the streams are
  // read, and they do not decode to their blocks' sizes.
  Bytes swapped = f.frame;
  std::swap_ranges(swapped.begin() + 16, swapped.begin() + 20, swapped.begin() + 20);
  const Result r = decode(d, f.kind, swapped, n);
  EXPECT_FALSE(r.status.ok() && r.out == f.decoded);
  // A memcpyed frame whose cbytes is not nbytes + 16.
  const Fixture& m = fixture("blosc-memcpyed-clevel0.blosc");
  Bytes mem = m.frame;
  mem.push_back(0);
  put_le32(&mem, 12, static_cast<uint32_t>(mem.size()));
  expect_code(decode(d, m.kind, mem, m.decoded.size()), ErrorCode::kCorruptData, "memcpyed with a byte more");
  expect_still_decodes(d);
}

TEST(DecompressTest, ArgumentsAreChecked) {
  Decompressor d;
  uint8_t out[4];
  EXPECT_EQ(d.decompress(Compression::kZstd, nullptr, 10, out, 4).code(), ErrorCode::kInvalidInput);
  const Bytes in(10, 0);
  EXPECT_EQ(d.decompress(Compression::kGzip, in.data(), in.size(), nullptr, 4).code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(d.decompress(static_cast<Compression>(9), in.data(), in.size(), out, 4).code(), ErrorCode::kInvalidInput);
  MallocBytes m;
  EXPECT_EQ(d.decompress_bounded(static_cast<Compression>(-1), in.data(), in.size(), 4, &m).code(),
            ErrorCode::kInvalidInput);
}

// The encoders: every kind and option decodes back here, and numcodecs
// decodes every frame.
struct Encoded {
  std::string name;
  Compression kind;
  Bytes frame;
  const Bytes* original;
};

Bytes image_like(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::poisson_distribution<int> noise(500);
  Bytes out(n);
  for (size_t i = 0; i + 1 < n; i += 2) {
    const int v = (noise(rng) + static_cast<int>((i / 2) % 64) * 8) & 0xfff;
    out[i] = static_cast<uint8_t>(v);
    out[i + 1] = static_cast<uint8_t>(v >> 8);
  }
  return out;
}

std::vector<Encoded> encoded_frames(const std::vector<Bytes>& inputs) {
  std::vector<Encoded> all;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Bytes& in = inputs[k];
    const std::string suffix = "-" + std::to_string(k);
    for (int level : {-5, 1, 3, 9, 19}) {
      CompressionOptions o;
      o.level = level;
      o.checksum = level == 3;
      all.push_back({"zstd-" + std::to_string(level) + suffix, Compression::kZstd, encode(Compression::kZstd, o, in), &in});
    }
    for (int level : {-1, 0, 1, 6, 9}) {
      CompressionOptions o;
      o.level = level;
      all.push_back({"gzip-" + std::to_string(level) + suffix, Compression::kGzip, encode(Compression::kGzip, o, in), &in});
      all.push_back({"zlib-" + std::to_string(level) + suffix, Compression::kZlib, encode(Compression::kZlib, o, in), &in});
    }
    for (int acceleration : {0, 1, 17}) {
      CompressionOptions o;
      o.acceleration = acceleration;
      all.push_back({"lz4-" + std::to_string(acceleration) + suffix, Compression::kLz4, encode(Compression::kLz4, o, in), &in});
    }
    for (BloscInner inner : {BloscInner::kBloscLz, BloscInner::kLz4, BloscInner::kLz4Hc, BloscInner::kZlib, BloscInner::kZstd}) {
      for (BloscShuffle shuffle : {BloscShuffle::kNone, BloscShuffle::kByte, BloscShuffle::kBit, BloscShuffle::kAuto}) {
        for (uint32_t typesize : {1u, 2u, 4u, 8u, 3u}) {
          for (uint64_t blocksize : {uint64_t{0}, uint64_t{1024}}) {
            CompressionOptions o;
            o.level = typesize == 8 ? 9 : 5;
            o.blosc_inner = inner;
            o.blosc_shuffle = shuffle;
            o.typesize = typesize;
            o.blocksize = blocksize;
            all.push_back({"blosc-" + std::to_string(static_cast<int>(inner)) + "-" +
                               std::to_string(static_cast<int>(shuffle)) + "-" + std::to_string(typesize) + "-" +
                               std::to_string(blocksize) + suffix,
                           Compression::kBlosc, encode(Compression::kBlosc, o, in), &in});
          }
        }
      }
    }
    CompressionOptions memcpyed;
    memcpyed.level = 0;
    all.push_back({"blosc-clevel0" + suffix, Compression::kBlosc, encode(Compression::kBlosc, memcpyed, in), &in});
  }
  return all;
}

TEST(EncoderTest, EveryFrameDecodesBack) {
  // 300000 bytes: several blocks of 64 KiB or more, each split by type byte.
  const std::vector<Bytes> inputs = {image_like(20000, 1), random_data(7001, 2), image_like(300000, 7)};
  Decompressor d;
  for (const Encoded& e : encoded_frames(inputs)) {
    const Result r = decode(d, e.kind, e.frame, e.original->size());
    ASSERT_TRUE(r.status.ok()) << e.name << ": " << r.status.message();
    EXPECT_EQ(r.out, *e.original) << e.name;
  }
}

TEST(EncoderTest, NumcodecsDecodesEveryFrame) {
  const std::vector<Bytes> inputs = {image_like(20000, 3), random_data(5003, 4)};
  char dir_template[] = "/tmp/zcw-encoded-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template;
  for (size_t k = 0; k < inputs.size(); ++k) write_file(dir + "/input-" + std::to_string(k), inputs[k]);
  std::ofstream manifest(dir + "/manifest.tsv");
  size_t count = 0;
  for (const Encoded& e : encoded_frames(inputs)) {
    write_file(dir + "/" + e.name, e.frame);
    const size_t k = static_cast<size_t>(e.original - inputs.data());
    manifest << e.name << '\t' << compression_name(e.kind) << "\tinput-" << k << '\n';
    ++count;
  }
  manifest.close();
  const std::string script = std::string(ZCW_FIXTURES_DIR) + "/../../scripts/numcodecs-decode-check.py";
  const std::string command = "/usr/bin/python3 '" + script + "' '" + dir + "'";
  const int status = std::system(command.c_str());
  EXPECT_EQ(status, 0) << command << " (" << count << " frames; python3-numcodecs is installed by scripts/setup.sh)";
  std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(EncoderTest, OptionsOutOfRangeAndNoRoom) {
  Compressor c;
  const Bytes in = image_like(4096, 5);
  Bytes out(8192);
  uint64_t written = 0;
  CompressionOptions o;
  o.level = 10;
  EXPECT_EQ(c.compress(Compression::kGzip, o, in.data(), in.size(), out.data(), out.size(), &written).message(),
            "gzip: level must be within -1..9, got 10");
  o.level = 23;
  EXPECT_EQ(c.compress(Compression::kZstd, o, in.data(), in.size(), out.data(), out.size(), &written).code(),
            ErrorCode::kInvalidConfiguration);
  o = CompressionOptions{};
  o.typesize = 256;
  EXPECT_EQ(c.compress(Compression::kBlosc, o, in.data(), in.size(), out.data(), out.size(), &written).message(),
            "blosc: typesize must be within 1..255, got 256");
  o = CompressionOptions{};
  o.blosc_inner = static_cast<BloscInner>(3);
  EXPECT_EQ(c.compress(Compression::kBlosc, o, in.data(), in.size(), out.data(), out.size(), &written).code(),
            ErrorCode::kInvalidConfiguration);
  o = CompressionOptions{};
  for (int kind = 0; kind < kCompressionKinds; ++kind) {
    const Status s = c.compress(static_cast<Compression>(kind), o, in.data(), in.size(), out.data(), 10, &written);
    EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch) << kind << ": " << s.message();
  }
}

}  // namespace
}  // namespace zcw
