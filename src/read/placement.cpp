#include "read/placement.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace zcw {
namespace {

// Sizes come from JavaScript numbers: everything stays below 2^53.
constexpr uint64_t kLimit = uint64_t{1} << 53;
constexpr size_t kMaxAxes = 64;

Status invalid(const std::string& message) {
  return Status(ErrorCode::kInvalidInput, "read: " + message);
}

// a * b, or false where it reaches kLimit.
bool mul(uint64_t a, uint64_t b, uint64_t* out) {
  if (a != 0 && b >= kLimit / a) return false;
  *out = a * b;
  return true;
}

bool add(uint64_t a, uint64_t b, uint64_t* out) {
  if (a >= kLimit || b >= kLimit - a) return false;
  *out = a + b;
  return true;
}

// One element's bytes, at the widths the data types have, then any width.
inline void copy_element(uint8_t* to, const uint8_t* from, uint64_t bytes) {
  switch (bytes) {
    case 1: *to = *from; return;
    case 2: std::memcpy(to, from, 2); return;
    case 4: std::memcpy(to, from, 4); return;
    case 8: std::memcpy(to, from, 8); return;
    default: std::memcpy(to, from, bytes);
  }
}

// `count` copies of the `bytes`-byte pattern at `to`: the first written,
// then doubled, so a long run is a few large copies.
void repeat(uint8_t* to, const uint8_t* pattern, uint64_t bytes, uint64_t count) {
  if (count == 0) return;
  std::memcpy(to, pattern, bytes);
  uint64_t done = bytes;
  const uint64_t total = bytes * count;
  while (done < total) {
    const uint64_t n = std::min(done, total - done);
    std::memcpy(to + done, to, n);
    done += n;
  }
}

bool is_full(const PlacementAxis& a) { return a.from == 0 && a.count == a.extent && a.step == 1; }

}  // namespace

Status Placement::make(uint64_t element_bytes, std::vector<PlacementAxis> axes,
                       uint64_t base, uint64_t band_bytes, Placement* out) {
  if (element_bytes == 0 || element_bytes >= kLimit) {
    return invalid("an element's size must be positive, got " + std::to_string(element_bytes));
  }
  if (axes.size() > kMaxAxes) {
    return invalid("a chunk may have " + std::to_string(kMaxAxes) + " axes at most, got " +
                   std::to_string(axes.size()));
  }
  Placement p;
  p.stored_element_bytes_ = element_bytes;
  p.chunk_bytes_ = element_bytes;
  p.selected_ = 1;
  // The last byte any selected element touches, from the base.
  uint64_t reach = element_bytes;
  for (size_t i = 0; i < axes.size(); ++i) {
    const PlacementAxis& a = axes[i];
    const std::string axis = "axis " + std::to_string(i);
    if (a.extent == 0 || a.step == 0 || a.extent >= kLimit || a.step >= kLimit ||
        a.from >= kLimit || a.count >= kLimit || a.out_stride >= kLimit) {
      return invalid(axis + ": extent and step must be positive");
    }
    if (a.count > 0) {
      uint64_t last = 0;
      if (!mul(a.count - 1, a.step, &last) || !add(last, a.from, &last) || last >= a.extent) {
        return invalid(axis + ": the selection runs past the chunk's extent " + std::to_string(a.extent));
      }
      uint64_t span = 0;
      if (!mul(a.count - 1, a.out_stride, &span) || !add(reach, span, &reach)) {
        return invalid(axis + ": the output offsets overflow");
      }
    }
    if (!mul(p.chunk_bytes_, a.extent, &p.chunk_bytes_)) return invalid("the chunk is too large");
    p.selected_ *= a.count;  // <= the chunk's elements
  }
  if (p.selected_ > 0) {
    uint64_t end = 0;
    if (!add(base, reach, &end) || end > band_bytes) {
      return invalid("the chunk's selection reaches byte " + std::to_string(end) +
                     " of a band of " + std::to_string(band_bytes));
    }
  }
  p.base_ = base;
  p.fill_axis_extent_ = axes.empty() ? 1 : axes.back().extent;

  // Axes of extent 1 hold one index, selected or not: they move nothing.
  std::vector<PlacementAxis> kept;
  for (const PlacementAxis& a : axes) {
    if (a.extent != 1) kept.push_back(a);
  }
  // An inner axis selected whole, whose rows follow each other in the
  // output as they do in the chunk, merges with the axis outside it.
  for (size_t i = kept.size(); i-- > 1;) {
    PlacementAxis& outer = kept[i - 1];
    const PlacementAxis& inner = kept[i];
    uint64_t row = 0;
    const bool regular = outer.count <= 1 || (outer.step == 1 && mul(inner.extent, inner.out_stride, &row) &&
                                              outer.out_stride == row);
    if (!is_full(inner) || !regular) continue;
    PlacementAxis merged;
    merged.extent = outer.extent * inner.extent;
    merged.from = outer.from * inner.extent;
    merged.count = outer.count * inner.extent;
    merged.step = 1;
    merged.out_stride = inner.out_stride;
    outer = merged;
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(i));
  }
  // The innermost axis, selected whole and contiguous in the output,
  // becomes part of the element: its rows are copied whole.
  p.element_bytes_ = element_bytes;
  while (!kept.empty() && is_full(kept.back()) && kept.back().out_stride == p.element_bytes_) {
    p.element_bytes_ *= kept.back().extent;
    p.folded_ *= kept.back().extent;
    kept.pop_back();
  }
  p.axes_ = std::move(kept);
  *out = std::move(p);
  return Status::Ok();
}

bool Placement::out_offset(uint64_t element, uint64_t* offset) const {
  uint64_t at = base_;
  for (size_t i = axes_.size(); i-- > 0;) {
    const PlacementAxis& a = axes_[i];
    const uint64_t index = element % a.extent;
    element /= a.extent;
    if (index < a.from || (index - a.from) % a.step != 0) return false;
    const uint64_t k = (index - a.from) / a.step;
    if (k >= a.count) return false;
    at += k * a.out_stride;
  }
  *offset = at;
  return true;
}

void Placement::place_partial(uint64_t element, uint64_t within, const uint8_t* from,
                              uint64_t bytes, uint8_t* band) const {
  uint64_t at = 0;
  if (out_offset(element, &at)) std::memcpy(band + at + within, from, bytes);
}

void Placement::place_row(uint64_t row, uint64_t i0, uint64_t i1, const uint8_t* from,
                          uint8_t* band) const {
  const PlacementAxis& x = axes_.back();
  // The row's place: every outer axis's index must be selected.
  uint64_t at = base_;
  for (size_t i = axes_.size() - 1; i-- > 0;) {
    const PlacementAxis& a = axes_[i];
    const uint64_t index = row % a.extent;
    row /= a.extent;
    if (index < a.from || (index - a.from) % a.step != 0) return;
    const uint64_t k = (index - a.from) / a.step;
    if (k >= a.count) return;
    at += k * a.out_stride;
  }
  // The selected indices of the innermost axis within [i0, i1).
  if (x.count == 0) return;
  const uint64_t last = x.from + (x.count - 1) * x.step;
  const uint64_t lo = std::max(i0, x.from);
  if (lo >= i1 || lo > last) return;
  uint64_t k0 = (lo - x.from + x.step - 1) / x.step;
  const uint64_t hi = std::min(i1 - 1, last);
  if (x.from + k0 * x.step > hi) return;
  const uint64_t k1 = (hi - x.from) / x.step + 1;  // exclusive
  const uint64_t eb = element_bytes_;
  const uint8_t* src = from + (x.from + k0 * x.step - i0) * eb;
  uint8_t* dst = band + at + k0 * x.out_stride;
  if (x.step == 1 && x.out_stride == eb) {
    std::memcpy(dst, src, (k1 - k0) * eb);
    return;
  }
  const uint64_t src_step = x.step * eb;
  for (uint64_t k = k0; k < k1; ++k, src += src_step, dst += x.out_stride) copy_element(dst, src, eb);
}

void Placement::place(uint64_t offset, const uint8_t* from, uint64_t length, uint8_t* band) const {
  if (selected_ == 0 || length == 0) return;
  const uint64_t eb = element_bytes_;
  uint64_t element = offset / eb;
  const uint64_t within = offset % eb;
  if (within != 0) {
    const uint64_t n = std::min(length, eb - within);
    place_partial(element, within, from, n, band);
    from += n;
    length -= n;
    ++element;
  }
  uint64_t whole = length / eb;
  if (axes_.empty()) {
    // The whole chunk is one element.
    if (whole > 0) std::memcpy(band + base_, from, eb);
  } else {
    const uint64_t extent = axes_.back().extent;
    while (whole > 0) {
      const uint64_t row = element / extent;
      const uint64_t i0 = element % extent;
      const uint64_t i1 = std::min(extent, i0 + whole);
      place_row(row, i0, i1, from, band);
      const uint64_t n = i1 - i0;
      from += n * eb;
      element += n;
      whole -= n;
    }
  }
  const uint64_t tail = length % eb;
  if (tail != 0) place_partial(element, 0, from, tail, band);
}

Status Placement::fill(const uint8_t* pattern, uint64_t pattern_bytes, uint8_t* band) const {
  const uint64_t seb = stored_element_bytes_;
  const uint64_t parts = pattern_bytes / seb;
  if (pattern_bytes % seb != 0 || (parts != 1 && parts != fill_axis_extent_)) {
    return invalid("a fill needs one element (" + std::to_string(seb) + " bytes) or one per index of the last axis (" +
                   std::to_string(seb * fill_axis_extent_) + " bytes), got " + std::to_string(pattern_bytes));
  }
  if (selected_ == 0) return Status::Ok();
  // The pattern of one (folded) element: stored element j of it is index
  // j of the last axis, modulo that axis's extent.
  std::vector<uint8_t> element(element_bytes_);
  for (uint64_t j = 0; j < folded_; ++j) {
    const uint64_t part = parts == 1 ? 0 : j % fill_axis_extent_;
    std::memcpy(element.data() + j * seb, pattern + part * seb, seb);
  }
  const uint64_t eb = element_bytes_;
  // Per element along the innermost axis only where its parts differ and
  // that axis was not folded into the element.
  const bool by_index = parts > 1 && folded_ == 1;
  if (axes_.empty()) {
    std::memcpy(band + base_, element.data(), eb);
    return Status::Ok();
  }
  // An odometer over the selected positions of the outer axes.
  const size_t outer = axes_.size() - 1;
  std::vector<uint64_t> k(outer, 0);
  const PlacementAxis& x = axes_.back();
  while (true) {
    uint64_t at = base_;
    for (size_t i = 0; i < outer; ++i) at += k[i] * axes_[i].out_stride;
    uint8_t* dst = band + at;
    if (by_index) {
      for (uint64_t j = 0; j < x.count; ++j, dst += x.out_stride) {
        const uint64_t part = (x.from + j * x.step) % fill_axis_extent_;
        copy_element(dst, pattern + part * seb, seb);
      }
    } else if (x.out_stride == eb) {
      repeat(dst, element.data(), eb, x.count);
    } else {
      for (uint64_t j = 0; j < x.count; ++j, dst += x.out_stride) copy_element(dst, element.data(), eb);
    }
    size_t i = outer;
    while (i > 0 && ++k[i - 1] == axes_[i - 1].count) k[--i] = 0;
    if (i == 0) break;
  }
  return Status::Ok();
}

}  // namespace zcw
