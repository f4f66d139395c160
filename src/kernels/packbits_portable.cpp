// The general fast path: any bit width 1..64, any container, any first_bit.
// Bits move through a 64-bit accumulator filled and drained eight bytes at a
// time where the buffer allows, so the cost per value is a few shifts.
#include <algorithm>
#include <cstring>

#include "kernels/packbits_kernels.h"

namespace zcw::packbits_impl {
namespace {

// Reads consecutive bit fields, least significant first, never touching a
// byte at or past `end`.
class BitReader {
 public:
  BitReader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}

  // b in 1..56.
  uint64_t read(uint32_t b) {
    if (have_ < b) refill();
    uint64_t v = buf_ & ((uint64_t{1} << b) - 1);
    buf_ >>= b;
    have_ -= b;
    return v;
  }

  // Drops `bits` bits, to start mid-byte.
  void skip(uint32_t bits) {
    for (; bits > 32; bits -= 32) read(32);
    if (bits) read(bits);
  }

  // b in 1..64.
  uint64_t read_wide(uint32_t b) {
    if (b <= 56) return read(b);
    uint64_t lo = read(32);
    return lo | (read(b - 32) << 32);
  }

 private:
  // Leaves at least 57 bits buffered, or all that remain. Bits above have_
  // may already hold the next bytes; the next refill ORs in the same values.
  void refill() {
    if (end_ - p_ >= 8) {
      uint64_t w;
      std::memcpy(&w, p_, 8);
      buf_ |= w << have_;
      uint32_t take = (63 - have_) >> 3;
      p_ += take;
      have_ += 8 * take;
    } else {
      while (have_ <= 56 && p_ < end_) {
        buf_ |= uint64_t{*p_++} << have_;
        have_ += 8;
      }
    }
  }

  const uint8_t* p_;
  const uint8_t* end_;
  uint64_t buf_ = 0;
  uint32_t have_ = 0;
};

// Writes consecutive bit fields; whole 8-byte words as they fill.
class BitWriter {
 public:
  explicit BitWriter(uint8_t* p) : p_(p) {}

  // v < 2^b, b in 1..56.
  void write(uint64_t v, uint32_t b) {
    acc_ |= v << have_;
    if (have_ + b >= 64) {
      std::memcpy(p_, &acc_, 8);
      p_ += 8;
      uint32_t consumed = 64 - have_;  // 8..63 here, as b <= 56
      acc_ = v >> consumed;
      have_ = have_ + b - 64;
    } else {
      have_ += b;
    }
  }

  void write_wide(uint64_t v, uint32_t b) {
    if (b <= 56) return write(v, b);
    write(v & 0xFFFFFFFFu, 32);
    write(v >> 32, b - 32);
  }

  // The last partial word, its padding bits zero.
  void flush() {
    for (uint32_t i = 0; i < (have_ + 7) / 8; ++i) {
      p_[i] = static_cast<uint8_t>(acc_ >> (8 * i));
    }
  }

 private:
  uint8_t* p_;
  uint64_t acc_ = 0;
  uint32_t have_ = 0;
};

template <typename Container>
Container load(const uint8_t* p) {
  Container v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename Container>
void store(uint8_t* p, uint64_t v) {
  Container c = static_cast<Container>(v);
  std::memcpy(p, &c, sizeof c);
}

// Spreads bit `last` over all the bits above it.
inline uint64_t sign_extend_from(uint64_t v, uint32_t last) {
  const uint32_t up = 63 - last;
  return static_cast<uint64_t>(static_cast<int64_t>(v << up) >> up);
}

// Each value is read on its own, with one 8-byte load at its first byte
// (no value waits on the one before, so loads overlap), while that load
// stays inside the buffer; the bit reader does the last few.
template <typename Container, bool SignExtend>
void decode_as(const PackBitsLayout& l, const uint8_t* packed, uint8_t* out,
               size_t components) {
  const uint32_t b = l.bits;
  const uint64_t in_bytes = (uint64_t{components} * b + 7) / 8;
  const uint32_t last = l.first_bit + b - 1;
  const uint64_t mask = b == 64 ? ~uint64_t{0} : (uint64_t{1} << b) - 1;
  size_t c = 0;
  if (b <= 56 && in_bytes >= 8) {
    // Value c's load covers bytes bit/8 .. bit/8 + 7.
    const size_t direct = static_cast<size_t>(
        std::min<uint64_t>(components, ((in_bytes - 8) * 8) / b + 1));
    for (; c < direct; ++c) {
      const uint64_t bit = uint64_t{c} * b;
      uint64_t w;
      std::memcpy(&w, packed + bit / 8, 8);
      uint64_t v = ((w >> (bit % 8)) & mask) << l.first_bit;
      if constexpr (SignExtend) v = sign_extend_from(v, last);
      store<Container>(out + c * sizeof(Container), v);
    }
  }
  const uint64_t bit = uint64_t{c} * b;
  BitReader reader(packed + bit / 8, packed + in_bytes);
  reader.skip(bit % 8);
  for (; c < components; ++c) {
    uint64_t v = reader.read_wide(b) << l.first_bit;
    if constexpr (SignExtend) v = sign_extend_from(v, last);
    store<Container>(out + c * sizeof(Container), v);
  }
}

template <typename Container>
void decode_as(const PackBitsLayout& l, const uint8_t* packed, uint8_t* out,
               size_t components) {
  if (l.sign_extend) return decode_as<Container, true>(l, packed, out, components);
  decode_as<Container, false>(l, packed, out, components);
}

template <typename Container>
void encode_as(const PackBitsLayout& l, const uint8_t* in, uint8_t* packed,
               size_t components) {
  BitWriter writer(packed);
  const uint64_t mask = l.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << l.bits) - 1;
  for (size_t c = 0; c < components; ++c) {
    uint64_t v = load<Container>(in + c * sizeof(Container));
    if (l.is_bool) v = v != 0;
    writer.write_wide((v >> l.first_bit) & mask, l.bits);
  }
  writer.flush();
}

// All bits kept and nothing to extend: the packed bytes are the values.
bool is_identity(const PackBitsLayout& l) {
  return !l.is_bool && l.first_bit == 0 && l.bits == 8 * l.container_bytes;
}

}  // namespace

void decode_portable(const PackBitsLayout& l, const uint8_t* packed,
                     uint8_t* out, size_t components) {
  if (is_identity(l)) {
    if (components) std::memcpy(out, packed, components * l.container_bytes);
    return;
  }
  switch (l.container_bytes) {
    case 1: return decode_as<uint8_t>(l, packed, out, components);
    case 2: return decode_as<uint16_t>(l, packed, out, components);
    case 4: return decode_as<uint32_t>(l, packed, out, components);
    default: return decode_as<uint64_t>(l, packed, out, components);
  }
}

void encode_portable(const PackBitsLayout& l, const uint8_t* in,
                     uint8_t* packed, size_t components) {
  if (is_identity(l)) {
    if (components) std::memcpy(packed, in, components * l.container_bytes);
    return;
  }
  switch (l.container_bytes) {
    case 1: return encode_as<uint8_t>(l, in, packed, components);
    case 2: return encode_as<uint16_t>(l, in, packed, components);
    case 4: return encode_as<uint32_t>(l, in, packed, components);
    default: return encode_as<uint64_t>(l, in, packed, components);
  }
}

}  // namespace zcw::packbits_impl
