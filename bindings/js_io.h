// The codecs' input and output when JavaScript calls: TypedArrays that stay
// in JavaScript memory. Before a call, the caller puts a Uint8Array view of
// the input in Module.zcwIo[0] and of the output in Module.zcwIo[1]; the
// streaming code (codecs/codec.cpp) copies block by block between them and
// the scratch blocks in wasm memory. An output of null means "leave the
// single block where it is": the pointer goes to Module.zcwIo[2], and the
// caller copies the result out in one slice.
#pragma once

#include <emscripten/em_js.h>

#include <cstdint>

#include "codecs/io.h"

// Both run inside the module's JS, where HEAPU8 is always the current view
// of wasm memory (memory growth replaces it).
EM_JS(void, zcw_js_read, (double offset, double length, uint8_t* into), {
  var src = Module["zcwIo"][0];
  HEAPU8.set(offset === 0 && length === src.length ? src : src.subarray(offset, offset + length), into);
});

// The view of the block copied out is kept for the next call that copies
// the same block (a codec's calls all do): small chunks allocate nothing.
EM_JS(void, zcw_js_write, (double offset, const uint8_t* from, double length), {
  var io = Module["zcwIo"];
  if (io[1] === null) {
    io[2] = from;
    return;
  }
  var view = io[3];
  if (view === undefined || view.buffer !== HEAPU8.buffer || view.byteOffset !== from || view.length !== length) {
    view = io[3] = HEAPU8.subarray(from, from + length);
  }
  io[1].set(view, offset);
});

namespace zcw::bindings {

class JsSource final : public ByteSource {
 public:
  void read(uint64_t offset, uint64_t length, uint8_t* into) override {
    if (length) zcw_js_read(static_cast<double>(offset), static_cast<double>(length), into);
  }
};

class JsSink final : public ByteSink {
 public:
  void write(uint64_t offset, const uint8_t* from, uint64_t length) override {
    zcw_js_write(static_cast<double>(offset), from, static_cast<double>(length));
  }
};

}  // namespace zcw::bindings
