// Where a decoded chunk's elements land in a read's output (js/read/, the
// `read` function): the chunk's selected region, walked in the order its
// bytes are stored, mapped to byte offsets in one band of the output (a
// run of whole rows of the output's first axis, in wasm memory, which the
// JS side copies out in one piece).
//
// A codec decodes into a PlacingSink instead of a buffer of its own, so a
// chunk goes from its encoded bytes to its place in the output with no
// chunk-sized copy in between; a missing chunk is placed as its fill.
// Everything is checked once, when the placement is made: no write can
// leave the band, whatever the description says.
#pragma once

#include <cstdint>
#include <vector>

#include "codecs/io.h"
#include "common/status.h"

namespace zcw {

// One axis of the chunk, in the order its bytes are stored (a transposed
// chunk's axes in storage order), and the elements selected along it:
// chunk-local indices from, from + step, ... (count of them). The k-th
// selected one lands out_stride * k bytes after the one before it.
struct PlacementAxis {
  uint64_t extent = 1;
  uint64_t from = 0;
  uint64_t count = 1;
  uint64_t step = 1;
  uint64_t out_stride = 0;
};

class Placement {
 public:
  // Checks the description and simplifies it: axes whose elements are
  // contiguous on both sides are merged, and a fully selected contiguous
  // innermost axis becomes part of the element, so that rows are copied
  // whole. `base` is where the first selected element lands in the band
  // of `band_bytes` bytes.
  static Status make(uint64_t element_bytes, std::vector<PlacementAxis> axes,
                     uint64_t base, uint64_t band_bytes, Placement* out);

  // Bytes of the whole chunk, as stored (a codec's decoded length).
  uint64_t chunk_bytes() const { return chunk_bytes_; }
  // Elements placed (0 where the selection misses the chunk).
  uint64_t selected() const { return selected_; }

  // Bytes [offset, offset + length) of the stored chunk, at `from`: the
  // selected ones are copied to their places in `band`. Any split of the
  // chunk into pieces places the same bytes.
  void place(uint64_t offset, const uint8_t* from, uint64_t length,
             uint8_t* band) const;

  // Every selected element set to a fill: `pattern` holds `parts` whole
  // elements, 1 (one value everywhere) or the extent of the last stored
  // axis (an element's values along a trailing dimension: complex parts,
  // record bytes); element i along that axis takes part i.
  Status fill(const uint8_t* pattern, uint64_t pattern_bytes,
              uint8_t* band) const;

 private:
  // One contiguous piece of a row: chunk elements [i0, i1) of the
  // innermost axis at outer position `row` (its output offset).
  void place_row(uint64_t row_out, uint64_t i0, uint64_t i1,
                 const uint8_t* from, uint8_t* band) const;
  // Part of one element (a piece boundary inside it): `bytes` bytes from
  // byte `within` of element `element` of the chunk.
  void place_partial(uint64_t element, uint64_t within, const uint8_t* from,
                     uint64_t bytes, uint8_t* band) const;
  // The output offset of the element with this C-order index, or false
  // where it is not selected.
  bool out_offset(uint64_t element, uint64_t* offset) const;

  uint64_t element_bytes_ = 1;  // after the innermost axes were folded in
  uint64_t stored_element_bytes_ = 1;
  uint64_t folded_ = 1;         // stored elements per element
  std::vector<PlacementAxis> axes_;
  uint64_t base_ = 0;
  uint64_t chunk_bytes_ = 0;
  uint64_t selected_ = 0;
  uint64_t fill_axis_extent_ = 1;  // the last stored axis, before folding
};

// A ByteSink that places what a codec writes (ByteSink::write) into a band.
class PlacingSink final : public ByteSink {
 public:
  PlacingSink(const Placement& placement, uint8_t* band)
      : placement_(placement), band_(band) {}
  void write(uint64_t offset, const uint8_t* from, uint64_t length) override {
    placement_.place(offset, from, length, band_);
  }

 private:
  const Placement& placement_;
  uint8_t* band_;
};

}  // namespace zcw
