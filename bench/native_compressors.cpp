// The compression libraries' decoders alone, natively (-O3, the x86
// kernels upstream picks at run time): the floor bench/compressors.mjs
// compares the wasm build with. Reads the chunks bench/make-compressed-chunks.py
// wrote (DIR/cases.tsv), decodes every chunk of a case once per round
// through the same zcw::Decompressor the wasm module exports, into one
// reused output buffer, and prints one JSON object
// { "<case>": best nanoseconds per round over all the case's chunks }.
//
//   zcw_native_compressors DIR [ROUNDS] [CASE-SUBSTRING] [cpu|wall]
// The clock is the process's CPU time (the bench's, on shared machines),
// or wall-clock time with "wall".
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compress/decompressor.h"

namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

bool kind_named(const std::string& name, zcw::Compression* out) {
  static const std::map<std::string, zcw::Compression> kinds = {
      {"zstd", zcw::Compression::kZstd}, {"gzip", zcw::Compression::kGzip}, {"zlib", zcw::Compression::kZlib},
      {"lz4", zcw::Compression::kLz4},   {"blosc", zcw::Compression::kBlosc}};
  const auto it = kinds.find(name);
  if (it == kinds.end()) return false;
  *out = it->second;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: zcw_native_compressors DIR [ROUNDS] [CASE-SUBSTRING] [cpu|wall]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const std::string only = argc > 3 ? argv[3] : "";
  const bool wall = argc > 4 && std::string(argv[4]) == "wall";
  auto now_ns = [wall] {
    timespec t;
    clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
  };
  std::ifstream cases(dir + "/cases.tsv");
  std::string line;
  zcw::Decompressor decompressor;
  std::printf("{");
  bool first = true;
  while (std::getline(cases, line)) {
    std::istringstream fields(line);
    std::string name, kind_name, decoded, count, folder;
    std::getline(fields, name, '\t');
    std::getline(fields, kind_name, '\t');
    std::getline(fields, decoded, '\t');
    std::getline(fields, count, '\t');
    std::getline(fields, folder, '\t');
    zcw::Compression kind;
    if (!kind_named(kind_name, &kind) || name.find(only) == std::string::npos) continue;
    std::vector<std::vector<uint8_t>> chunks;
    for (int i = 0; i < std::stoi(count); ++i) {
      chunks.push_back(read_file(dir + "/" + folder + "/chunk-" + std::to_string(i) + ".bin"));
    }
    std::vector<uint8_t> out(std::stoull(decoded));
    double best = 1e300;
    for (int round = 0; round < rounds + 1; ++round) {  // the first round warms up
      const double t0 = now_ns();
      for (const auto& chunk : chunks) {
        const zcw::Status s = decompressor.decompress(kind, chunk.data(), chunk.size(), out.data(), out.size());
        if (!s.ok()) {
          std::fprintf(stderr, "%s: %s\n", name.c_str(), s.message().c_str());
          return 1;
        }
      }
      const double ns = now_ns() - t0;
      if (round > 0) best = std::min(best, ns);
    }
    std::printf("%s\"%s\": %.0f", first ? "" : ", ", name.c_str(), best);
    first = false;
    std::fflush(stdout);
  }
  std::printf("}\n");
  return 0;
}
