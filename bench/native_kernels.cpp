// The kernels alone, natively (-O3, SSE4.1): each case's codec runs one
// 64 KiB block of decoded output scratch to scratch (Codec::run_block), the
// very call the wasm side times through the embind class. Prints one JSON
// object { "<op> <label>": GB/s of decoded bytes, ... } for bench/run.mjs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "codecs/bytes_codec.h"
#include "codecs/packbits_codec.h"

namespace {

using zcw::BytesCodec;
using zcw::Codec;
using zcw::PackBitsCodec;
using zcw::Presentation;

constexpr uint64_t kBlock = 65536;  // decoded bytes: one scratch block

struct Case {
  const char* op;
  const char* label;
  bool decoding;
  std::function<std::unique_ptr<Codec>()> make;
};

std::unique_ptr<Codec> bytes(const char* type, const char* endian, uint64_t n,
                             Presentation p = Presentation::kStored) {
  return std::make_unique<BytesCodec>(type, endian ? std::optional<std::string_view>(endian) : std::nullopt,
                                      std::vector<uint64_t>{n}, p);
}

std::unique_ptr<Codec> packbits(const char* type, std::optional<int64_t> first,
                                std::optional<int64_t> last, uint64_t n,
                                Presentation p = Presentation::kStored) {
  return std::make_unique<PackBitsCodec>(type, first, last, std::nullopt, std::vector<uint64_t>{n}, p);
}

// Best of several rounds, in seconds per block.
double best_seconds(const Codec& codec, bool decoding, zcw::Scratch& scratch, zcw::Impl impl) {
  const int reps = 2000;
  double best = 1e30;
  for (int round = 0; round < 7; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    codec.run_block(decoding, reps, scratch, impl);
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count() / reps);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  zcw::Impl impl = zcw::fastest_impl();
  if (argc > 1 && !zcw::parse_impl(argv[1], &impl)) return 2;
  const auto f32 = Presentation::kFloat32;
  const Case cases[] = {
      {"bytes-be-decode", "int16", true, [] { return bytes("int16", "big", kBlock / 2); }},
      {"bytes-be-decode", "float32", true, [] { return bytes("float32", "big", kBlock / 4); }},
      {"bytes-be-decode", "float64", true, [] { return bytes("float64", "big", kBlock / 8); }},
      {"packbits-decode", "bool", true, [] { return packbits("bool", {}, {}, kBlock); }},
      {"packbits-decode", "uint8 4-bit", true, [] { return packbits("uint8", {}, 3, kBlock); }},
      {"packbits-decode", "uint16 12-bit", true, [] { return packbits("uint16", {}, 11, kBlock / 2); }},
      {"packbits-decode", "int16 bits 3..12", true, [] { return packbits("int16", 3, 12, kBlock / 2); }},
      {"packbits-encode", "bool", false, [] { return packbits("bool", {}, {}, kBlock); }},
      {"packbits-encode", "uint8 4-bit", false, [] { return packbits("uint8", {}, 3, kBlock); }},
      {"packbits-encode", "uint16 12-bit", false, [] { return packbits("uint16", {}, 11, kBlock / 2); }},
      {"packbits-encode", "int16 bits 3..12", false, [] { return packbits("int16", 3, 12, kBlock / 2); }},
      {"widen-decode", "bfloat16 (bytes)", true, [f32] { return bytes("bfloat16", "little", kBlock / 4, f32); }},
      {"widen-decode", "float8_e4m3 (bytes)", true, [f32] { return bytes("float8_e4m3", nullptr, kBlock / 4, f32); }},
      {"widen-decode", "float4_e2m1fn (packbits)", true, [f32] { return packbits("float4_e2m1fn", {}, {}, kBlock / 4, f32); }},
  };
  auto scratch = std::make_unique<zcw::Scratch>();
  for (size_t i = 0; i < sizeof scratch->in; ++i) {
    scratch->in[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
  }
  std::printf("{\"implementation\": \"%s\"", zcw::impl_name(impl));
  for (const Case& c : cases) {
    const auto codec = c.make();
    if (!codec->status().ok()) {
      std::fprintf(stderr, "%s\n", codec->status().message().c_str());
      return 1;
    }
    const double s = best_seconds(*codec, c.decoding, *scratch, impl);
    std::printf(",\n \"%s %s\": %.3f", c.op, c.label, kBlock / s / 1e9);
  }
  std::printf("\n}\n");
  return 0;
}
