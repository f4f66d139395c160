// read's side of the bindings (js/read/): where a chunk lands in a band of
// the output, described by the JS layer as float64s in wasm memory, and
// the two ways a chunk is placed without a codec of ours: its decoded
// bytes copied (zarrita's little-endian bytes, a chunk zarrita decoded),
// or its fill. Codecs place through PlacingSink (bindings.cpp).
//
// The description, at `desc` (8-byte aligned):
//   [element_bytes, base, band_bytes, rank,
//    then per axis in storage order: extent, from, count, step, out_stride]
// Placement::make checks it whole: nothing it allows writes outside the band.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "codecs/io.h"
#include "common/status.h"
#include "js_io.h"
#include "read/placement.h"

namespace zcw::bindings {

// The last read call's outcome (JS reads it after a failure).
inline Status& read_status() {
  static Status status;
  return status;
}

inline bool whole_number(double v) { return std::isfinite(v) && v >= 0 && v < 9007199254740992.0 && v == std::floor(v); }

inline Status parse_placement(const double* desc, const uint8_t* band, Placement* out) {
  const Status bad(ErrorCode::kInvalidInput, "read: bad placement description");
  if (desc == nullptr || band == nullptr) return bad;
  for (int i = 0; i < 4; ++i) {
    if (!whole_number(desc[i])) return bad;
  }
  const uint64_t rank = static_cast<uint64_t>(desc[3]);
  if (rank > 64) return bad;
  std::vector<PlacementAxis> axes(rank);
  for (uint64_t i = 0; i < rank; ++i) {
    const double* a = desc + 4 + 5 * i;
    for (int j = 0; j < 5; ++j) {
      if (!whole_number(a[j])) return bad;
    }
    axes[i] = PlacementAxis{static_cast<uint64_t>(a[0]), static_cast<uint64_t>(a[1]),
                            static_cast<uint64_t>(a[2]), static_cast<uint64_t>(a[3]),
                            static_cast<uint64_t>(a[4])};
  }
  return Placement::make(static_cast<uint64_t>(desc[0]), std::move(axes), static_cast<uint64_t>(desc[1]),
                         static_cast<uint64_t>(desc[2]), out);
}

inline Status copy_length(uint64_t in_length, const Placement& p) {
  if (in_length == p.chunk_bytes()) return Status::Ok();
  return Status(ErrorCode::kLengthMismatch, "read: the chunk's decoded bytes should be " +
                                                std::to_string(p.chunk_bytes()) + ", got " +
                                                std::to_string(in_length));
}

// A chunk's decoded bytes (input slot 0), in storage order, placed.
inline Status place_copy(uint64_t in_length, const Placement& p, uint8_t* band, Scratch& scratch) {
  Status s = copy_length(in_length, p);
  if (!s.ok()) return s;
  JsSource in;
  PlacingSink sink(p, band);
  for (uint64_t at = 0; at < in_length; at += Scratch::kBytes) {
    const uint64_t n = std::min<uint64_t>(Scratch::kBytes, in_length - at);
    in.read(at, n, scratch.in);
    sink.write(at, scratch.in, n);
  }
  return Status::Ok();
}

// The same from bytes in wasm memory: placed in one pass, no scratch.
inline Status place_copy_from(MemorySource& in, uint64_t in_length, const Placement& p, uint8_t* band) {
  Status s = copy_length(in_length, p);
  if (!s.ok() || in_length == 0) return s;
  PlacingSink sink(p, band);
  // MemorySource reads its own memory: the sink takes it in place.
  const uint8_t* bytes = in.data();
  sink.write(0, bytes, in_length);
  return Status::Ok();
}

// Every selected element set to the fill (input slot 0: one element's
// bytes, or one per index of the last axis).
inline Status place_fill(uint64_t pattern_length, const Placement& p, uint8_t* band) {
  if (pattern_length > (uint64_t{1} << 26)) return Status(ErrorCode::kInvalidInput, "read: the fill is too large");
  std::vector<uint8_t> pattern(pattern_length);
  JsSource(0).read(0, pattern_length, pattern.data());
  return p.fill(pattern.data(), pattern_length, band);
}

}  // namespace zcw::bindings
