// Chooses the implementation; SIMD kernels do what they can and the portable
// path finishes, as simdutf hands its tails to scalar code.
#include "kernels/packbits_kernels.h"

namespace zcw {

void packbits_decode(Impl impl, const PackBitsLayout& layout,
                     const uint8_t* packed, uint8_t* out, size_t components) {
  using namespace packbits_impl;
  switch (impl) {
    case Impl::kReference:
      return decode_reference(layout, packed, out, components);
    case Impl::kPortable:
      return decode_portable(layout, packed, out, components);
    case Impl::kSimd: {
      // A multiple of 8 components, so the rest starts on a byte boundary.
      const size_t done = decode_simd(layout, packed, out, components);
      return decode_portable(layout, packed + done / 8 * layout.bits,
                             out + done * layout.container_bytes,
                             components - done);
    }
  }
}

void packbits_encode(Impl impl, const PackBitsLayout& layout,
                     const uint8_t* in, uint8_t* packed, size_t components) {
  using namespace packbits_impl;
  switch (impl) {
    case Impl::kReference:
      return encode_reference(layout, in, packed, components);
    case Impl::kPortable:
      return encode_portable(layout, in, packed, components);
    case Impl::kSimd: {
      const size_t done = encode_simd(layout, in, packed, components);
      return encode_portable(layout, in + done * layout.container_bytes,
                             packed + done / 8 * layout.bits,
                             components - done);
    }
  }
}

}  // namespace zcw
