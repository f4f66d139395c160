// Where a codec reads its input and writes its output. Natively these are
// memory buffers; in the wasm build they are JavaScript TypedArrays that
// never enter wasm memory whole (bindings/js_io.h): a chunk streams through
// a fixed scratch region instead, block by block, so wasm memory does not
// grow with chunk size. Both builds run the same streaming code
// (codecs/codec.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace zcw {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies bytes [offset, offset + length) into `into`; callers stay inside
  // the length they were given.
  virtual void read(uint64_t offset, uint64_t length, uint8_t* into) = 0;
};

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  // Copies `length` bytes from `from` to [offset, offset + length).
  virtual void write(uint64_t offset, const uint8_t* from, uint64_t length) = 0;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(const uint8_t* data) : data_(data) {}
  void read(uint64_t offset, uint64_t length, uint8_t* into) override {
    if (length) std::memcpy(into, data_ + offset, length);
  }
  const uint8_t* data() const { return data_; }

 private:
  const uint8_t* data_;
};

class MemorySink final : public ByteSink {
 public:
  explicit MemorySink(uint8_t* data) : data_(data) {}
  void write(uint64_t offset, const uint8_t* from, uint64_t length) override {
    if (length) std::memcpy(data_ + offset, from, length);
  }

 private:
  uint8_t* data_;
};

// The blocks a chunk streams through: the input block, an intermediate
// stage (packed values decoded before widening, say), and the output block.
// Small enough to stay in cache; the 16 spare bytes let SIMD kernels load a
// whole vector at a block's end.
struct Scratch {
  static constexpr size_t kBytes = 64 * 1024;
  alignas(16) uint8_t in[kBytes + 16];
  alignas(16) uint8_t mid[kBytes + 16];
  alignas(16) uint8_t out[kBytes + 16];
};

}  // namespace zcw
