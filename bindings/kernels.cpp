// The hot path: plain wasm exports taking heap pointers and counts, so a
// kernel call from JS is one direct wasm call with no embind conversion.
// Everything here was validated when the codec was planned; these only move
// bytes inside the caller's scratch region.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "../src/bytes_codec.h"
#include "../src/numcodecs_packbits.h"
#include "../src/packbits_kernels.h"
#include "active_impl.h"

using zcw::bindings::active_impl;

namespace {

zcw::PackBitsLayout layout(uint32_t first_bit, uint32_t bits,
                           uint32_t container_bytes, uint32_t sign_extend,
                           uint32_t is_bool) {
  zcw::PackBitsLayout l;
  l.first_bit = first_bit;
  l.bits = bits;
  l.component_bits = 8 * container_bytes;
  l.container_bytes = container_bytes;
  l.sign_extend = sign_extend != 0;
  l.is_bool = is_bool != 0;
  return l;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE void zcw_bytes_transform(uint32_t swap_width,
                                              uint32_t normalize_bool,
                                              const uint8_t* src, uint8_t* dst,
                                              uint32_t bytes) {
  zcw::bytes_transform(active_impl(), swap_width, normalize_bool != 0, src, dst,
                       bytes);
}

EMSCRIPTEN_KEEPALIVE void zcw_packbits_decode(uint32_t first_bit, uint32_t bits,
                                              uint32_t container_bytes,
                                              uint32_t sign_extend,
                                              uint32_t is_bool,
                                              const uint8_t* src, uint8_t* dst,
                                              uint32_t components) {
  zcw::packbits_decode(active_impl(),
                       layout(first_bit, bits, container_bytes, sign_extend, is_bool),
                       src, dst, components);
}

EMSCRIPTEN_KEEPALIVE void zcw_packbits_encode(uint32_t first_bit, uint32_t bits,
                                              uint32_t container_bytes,
                                              uint32_t sign_extend,
                                              uint32_t is_bool,
                                              const uint8_t* src, uint8_t* dst,
                                              uint32_t components) {
  zcw::packbits_encode(active_impl(),
                       layout(first_bit, bits, container_bytes, sign_extend, is_bool),
                       src, dst, components);
}

EMSCRIPTEN_KEEPALIVE void zcw_numcodecs_unpack(const uint8_t* src, uint8_t* dst,
                                               uint32_t count) {
  zcw::unpack_msb_first(active_impl(), src, dst, count);
}

EMSCRIPTEN_KEEPALIVE void zcw_numcodecs_pack(const uint8_t* src, uint8_t* dst,
                                             uint32_t count) {
  zcw::pack_msb_first(active_impl(), src, dst, count);
}

}  // extern "C"
