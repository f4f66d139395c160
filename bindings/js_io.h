// The codecs' inputs and outputs when JavaScript calls: TypedArrays that
// stay in JavaScript memory, reached through Module.zcwIo, which
// js/wasm/io.js owns (its header states the protocol): before a call it
// puts Uint8Array views of the call's inputs in zcwIo.inputs and of its
// outputs in zcwIo.outputs; the C++ side copies block by block between
// those and wasm memory. An output of null means "leave the single block
// where it is": its address goes to zcwIo.kept, and the caller copies the
// result out in one slice.
#pragma once

#include <emscripten/em_js.h>

#include <cstdint>

#include "codecs/io.h"

// Both run inside the module's JS, where HEAPU8 is always the current view
// of wasm memory (memory growth replaces it). Neither can throw: io.js
// validates every view before a call.
EM_JS(void, zcw_js_read, (int slot, double offset, double length, uint8_t* into), {
  var src = Module["zcwIo"].inputs[slot];
  HEAPU8.set(offset === 0 && length === src.length ? src : src.subarray(offset, offset + length), into);
});

// The view of the block copied out is kept for the next call that copies
// the same block (a codec's calls all do): small chunks allocate nothing.
EM_JS(void, zcw_js_write, (int slot, double offset, const uint8_t* from, double length), {
  var io = Module["zcwIo"];
  var dst = io.outputs[slot];
  if (dst === null) {
    io.kept = from;
    return;
  }
  var view = io.view;
  if (view === undefined || view.buffer !== HEAPU8.buffer || view.byteOffset !== from || view.length !== length) {
    view = io.view = HEAPU8.subarray(from, from + length);
  }
  dst.set(view, offset);
});

namespace zcw::bindings {

class JsSource final : public ByteSource {
 public:
  explicit JsSource(int slot = 0) : slot_(slot) {}
  void read(uint64_t offset, uint64_t length, uint8_t* into) override {
    if (length) zcw_js_read(slot_, static_cast<double>(offset), static_cast<double>(length), into);
  }

 private:
  int slot_;
};

class JsSink final : public ByteSink {
 public:
  explicit JsSink(int slot = 0) : slot_(slot) {}
  void write(uint64_t offset, const uint8_t* from, uint64_t length) override {
    zcw_js_write(slot_, static_cast<double>(offset), from, static_cast<double>(length));
  }

 private:
  int slot_;
};

}  // namespace zcw::bindings
