// Bytes in memory from malloc, owned: what a bounded decode produces
// (Decompressor::decompress_bounded). malloc rather than std::vector because
// its failure is an answer (OUT_OF_MEMORY, wasm memory at its limit) where a
// vector would abort the instance, and because the wasm bindings hand the
// bytes to JavaScript, which frees them with zcw_free.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <utility>

namespace zcw {

class MallocBytes {
 public:
  MallocBytes() = default;
  MallocBytes(const MallocBytes&) = delete;
  MallocBytes& operator=(const MallocBytes&) = delete;
  MallocBytes(MallocBytes&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  MallocBytes& operator=(MallocBytes&& other) noexcept {
    if (this != &other) {
      std::free(data_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~MallocBytes() { std::free(data_); }

  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

  // Exactly `bytes` bytes, the first min(old, new) kept; false (and
  // nothing changed) where memory ran out. Never fails to shrink.
  bool resize(uint64_t bytes) {
    if (bytes == size_) return true;
    if (bytes == 0) {
      std::free(data_);
      data_ = nullptr;
      size_ = 0;
      return true;
    }
    if (bytes > SIZE_MAX) return false;
    void* grown = std::realloc(data_, static_cast<size_t>(bytes));
    if (grown == nullptr) {
      if (bytes > size_) return false;
      size_ = bytes;  // a shrink realloc refused: the larger block serves
      return true;
    }
    data_ = static_cast<uint8_t*>(grown);
    size_ = bytes;
    return true;
  }

  // The caller takes the bytes (and frees them with free()).
  uint8_t* release() {
    size_ = 0;
    return std::exchange(data_, nullptr);
  }

 private:
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace zcw
