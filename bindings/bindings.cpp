// The JS-visible surface: one embind class per codec over the C++ core,
// built from primitives the JS layer has checked (bindings/arguments.h),
// errors as status values. The package's JS classes own one instance each,
// call it through plain exports (zcw_decode, ...: no embind conversion per
// call, the block streaming in C++, the TypedArrays reached through
// Module.zcwIo, bindings/js_io.h) and throw the package's error from a
// failed status. Nothing here throws into JavaScript or calls JavaScript
// that could throw, so a C++ frame is never unwound by a JS exception.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cstring>
#include <memory>
#include <string>

#include "active_impl.h"
#include "arguments.h"
#include "compress_exports.h"
#include "codecs/bytes_codec.h"
#include "codecs/n5_block.h"
#include "codecs/numcodecs_packbits.h"
#include "codecs/packbits_codec.h"
#include "codecs/record_columns.h"
#include "codecs/vlen_bytes.h"
#include "js_io.h"
#include "kernels/widen.h"
#include "read_chain.h"
#include "read_placement.h"
#include "read_values.h"

#ifndef ZCW_ABI_VERSION
#error "ZCW_ABI_VERSION comes from js/wasm/abi-version.js (CMakeLists.txt)"
#endif

namespace zcw::bindings {
namespace {

// One per module instance; JS is single-threaded per instance.
Scratch g_scratch;
Workspace g_workspace;
int g_live = 0;  // instances of the classes below

struct Outcome {
  std::string code = "OK";
  std::string message;
};

Outcome to_outcome(const Status& s) {
  return Outcome{error_code_name(s.code()), s.message()};
}

// The element type of a decoded container, as js/codecs/containers.js
// names it: "bool", "int8" .. "uint64", "float16", "float32", "float64",
// "utf32" (code units of fixed-length strings).
std::string value_type(const DataType& t, Presentation p) {
  if (p == Presentation::kFloat32) return "float32";
  const std::string bits = std::to_string(8 * t.container_bytes);
  switch (t.type_class) {
    case TypeClass::kBool: return "bool";
    case TypeClass::kSignedInt: return "int" + bits;
    case TypeClass::kUnsignedInt: return "uint" + bits;
    case TypeClass::kRaw:
    case TypeClass::kRecord: return "uint8";
    case TypeClass::kString: return "utf32";
    case TypeClass::kFloat:
      if (t.container_bytes >= 4) return "float" + bits;
      if (t.format && t.format->name == "float16") return "float16";
      return "uint" + bits;  // bit patterns
  }
  return "uint8";
}

Presentation presentation_or(const std::string& codec, const std::string& name,
                             Status* status) {
  Presentation p = Presentation::kStored;
  if (!parse_presentation(name, &p)) {
    *status = Status(ErrorCode::kInvalidConfiguration,
                     codec + ": presentation must be \"stored\" or "
                             "\"float32\", got \"" +
                         utf8_prefix(name, 32) + "\"");
  }
  return p;
}

// What every class shares: counted while alive, a status of the last call,
// an address for the plain exports.
class Counted {
 public:
  Counted() { ++g_live; }
  virtual ~Counted() { --g_live; }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;

  Outcome lastStatus() const { return to_outcome(last_); }
  const Status& last() const { return last_; }
  double handle() const { return static_cast<double>(reinterpret_cast<uintptr_t>(this)); }

 protected:
  Status last_;
};

}  // namespace

// bytes, packbits and numcodecs.packbits: the streaming codecs.
class JsCodec : public Counted {
 public:
  Outcome status() const { return to_outcome(status_of()); }
  double decodedBytes() const { return ok() ? static_cast<double>(codec_->decoded_bytes()) : 0; }
  double encodedBytes() const { return ok() ? static_cast<double>(codec_->encoded_bytes()) : 0; }
  bool decodeIsCopy() const { return ok() && codec_->decode_is_copy(); }
  bool encodeIsCopy() const { return ok() && codec_->encode_is_copy(); }
  bool singleBlock() const { return ok() && codec_->single_block(); }
  std::string valueType() const { return ok() ? value_type(codec_->type(), codec_->presentation()) : ""; }
  // Values per element in the decoded container (2 for complex, the code
  // points of a string, the bytes of a record).
  double valuesPerElement() const {
    if (!ok() || codec_->shape().elements == 0) return 0;
    const uint64_t bytes_per_value = codec_->value_bytes();
    return static_cast<double>(codec_->decoded_bytes() / bytes_per_value / codec_->shape().elements);
  }

  // The encoded size of `decoded` decoded bytes (an integer the JS layer
  // checked); -1 where that is not a whole number of elements
  // (lastStatus() says why).
  double encodedSizeFor(double decoded) {
    uint64_t out = 0;
    last_ = !ok() ? status_of() : codec_->encoded_size_for(static_cast<uint64_t>(decoded), &out);
    return last_.ok() ? static_cast<double>(out) : -1;
  }

  // zcw_decode / zcw_encode: input slot 0 to output slot 0.
  int run(bool decoding, double in_length, double out_length) {
    if (!ok()) {
      last_ = status_of();
      return 1;
    }
    JsSource in;
    JsSink out;
    const uint64_t n_in = static_cast<uint64_t>(in_length);
    const uint64_t n_out = static_cast<uint64_t>(out_length);
    last_ = decoding ? codec_->decode(in, n_in, out, n_out, g_scratch, active_impl())
                     : codec_->encode(in, n_in, out, n_out, g_scratch, active_impl());
    return last_.ok() ? 0 : 1;
  }

  // zcw_read_decode: input slot 0 decoded straight into its place in a
  // band of read's output.
  int place(double in_length, const Placement& placement, uint8_t* band) {
    JsSource in;
    return place_from(in, in_length, placement, band);
  }

  // zcw_read_chain: the same from bytes already in wasm memory (a chunk
  // decompressed there).
  int place_from(ByteSource& in, double in_length, const Placement& placement, uint8_t* band) {
    if (!ok()) {
      last_ = status_of();
      return 1;
    }
    PlacingSink out(placement, band);
    last_ = codec_->decode(in, static_cast<uint64_t>(in_length), out, placement.chunk_bytes(), g_scratch,
                           active_impl());
    return last_.ok() ? 0 : 1;
  }

  // Diagnostics (docs/reliability.md): the kernel alone, `repetitions`
  // blocks through the scratch blocks, nothing copied in or out.
  void runKernel(bool decoding, int repetitions) {
    if (ok()) codec_->run_block(decoding, repetitions, g_scratch, active_impl());
  }

 protected:
  bool ok() const { return codec_ && codec_->status().ok(); }
  Status status_of() const { return codec_ ? codec_->status() : refused_; }

  std::unique_ptr<Codec> codec_;
  Status refused_;  // arguments refused before the codec could be built
};

class JsBytesCodec final : public JsCodec {
 public:
  JsBytesCodec(const std::string& data_type, const std::string& endian,
               const std::string& shape, const std::string& presentation) {
    std::vector<uint64_t> dims;
    const Presentation p = presentation_or("bytes", presentation, &refused_);
    if (refused_.ok()) refused_ = parse_shape("bytes", shape, &dims);
    if (!refused_.ok()) return;
    codec_ = std::make_unique<BytesCodec>(data_type, optional_text(endian), std::move(dims), p);
  }
};

class JsPackBitsCodec final : public JsCodec {
 public:
  JsPackBitsCodec(const std::string& data_type, double first_bit, double last_bit,
                  const std::string& padding, const std::string& shape,
                  const std::string& presentation) {
    std::vector<uint64_t> dims;
    const Presentation p = presentation_or("packbits", presentation, &refused_);
    if (refused_.ok()) refused_ = parse_shape("packbits", shape, &dims);
    if (!refused_.ok()) return;
    codec_ = std::make_unique<PackBitsCodec>(data_type, optional_integer(first_bit),
                                             optional_integer(last_bit), optional_text(padding),
                                             std::move(dims), p);
  }
};

class JsNumcodecsPackBitsCodec final : public JsCodec {
 public:
  JsNumcodecsPackBitsCodec(const std::string& data_type, const std::string& shape) {
    std::vector<uint64_t> dims;
    refused_ = parse_shape("numcodecs.packbits", shape, &dims);
    if (!refused_.ok()) return;
    codec_ = std::make_unique<NumcodecsPackBitsCodec>(data_type, std::move(dims));
  }
};

// n5_default's block layout; `axes` "n5" (the chunk's axes are the block
// header's) or "reversed".
class JsN5BlockCodec final : public Counted {
 public:
  JsN5BlockCodec(const std::string& data_type, const std::string& chunk, const std::string& axes) {
    std::vector<uint64_t> dims;
    N5Axes order = N5Axes::kN5;
    refused_ = parse_shape("n5_default", chunk, &dims);
    if (refused_.ok() && !parse_n5_axes(axes, &order)) {
      refused_ = Status(ErrorCode::kInvalidConfiguration,
                        "n5_default: axes must be \"n5\" or \"reversed\", got \"" + utf8_prefix(axes, 32) + "\"");
    }
    if (refused_.ok()) codec_ = std::make_unique<N5BlockCodec>(data_type, std::move(dims), order);
  }
  Outcome status() const { return to_outcome(status_of()); }
  double chunkBytes() const { return ok() ? static_cast<double>(codec_->chunk_bytes()) : 0; }
  std::string valueType() const { return ok() ? value_type(codec_->type(), Presentation::kStored) : ""; }

  // zcw_n5_decode: input slot 0 the payload, slot 1 the header's shape (as
  // little-endian uint32s), slot 2 the fill's bytes; output slot 0.
  int decode(double in_length, int rank, int fill_length, double out_length) {
    JsSink out;
    JsSource in;
    return decode_to(in, in_length, rank, fill_length, out, out_length);
  }

  // zcw_read_n5: the same, straight into its place in a band of read's
  // output; from slot 0, or (zcw_read_n5_chain) from a payload
  // decompressed in wasm memory.
  int place(ByteSource& in, double in_length, int rank, int fill_length, const Placement& placement, uint8_t* band) {
    PlacingSink out(placement, band);
    return decode_to(in, in_length, rank, fill_length, out, static_cast<double>(placement.chunk_bytes()));
  }

  int decode_to(ByteSource& in, double in_length, int rank, int fill_length, ByteSink& out, double out_length) {
    if (!ok()) return fail(status_of());
    if (rank < 0 || rank > 65535 || fill_length < 0 || fill_length > 16) {
      return fail(Status(ErrorCode::kInvalidInput, "n5_default: bad call"));
    }
    std::vector<uint32_t> dims32(static_cast<size_t>(rank));
    std::vector<uint8_t> fill(static_cast<size_t>(fill_length));
    JsSource(1).read(0, 4 * dims32.size(), reinterpret_cast<uint8_t*>(dims32.data()));
    JsSource(2).read(0, fill.size(), fill.data());
    const std::vector<uint64_t> block(dims32.begin(), dims32.end());
    last_ = codec_->decode(block, fill, in, static_cast<uint64_t>(in_length), out,
                           static_cast<uint64_t>(out_length), g_scratch, g_workspace, active_impl());
    return last_.ok() ? 0 : 1;
  }

  int encode(double in_length, double out_length) {
    if (!ok()) return fail(status_of());
    JsSource in;
    JsSink out;
    last_ = codec_->encode(in, static_cast<uint64_t>(in_length), out,
                           static_cast<uint64_t>(out_length), g_scratch, g_workspace, active_impl());
    return last_.ok() ? 0 : 1;
  }

 private:
  bool ok() const { return codec_ && codec_->status().ok(); }
  Status status_of() const { return codec_ ? codec_->status() : refused_; }
  int fail(Status s) {
    last_ = std::move(s);
    return 1;
  }
  std::unique_ptr<N5BlockCodec> codec_;
  Status refused_;
};

// structFields' split.
class JsRecordColumns final : public Counted {
 public:
  JsRecordColumns(const std::string& descriptor, bool float32) : columns_(descriptor, float32) {}
  Outcome status() const { return to_outcome(columns_.status()); }
  double recordBytes() const { return static_cast<double>(columns_.record_bytes()); }
  int leaves() const { return columns_.status().ok() ? static_cast<int>(columns_.leaves()) : 0; }
  // Out of range (a caller's mistake): "" and 0.
  std::string leafValueType(int leaf) const {
    return has(leaf) ? value_type(columns_.leaf_type(leaf), columns_.leaf_presentation(leaf)) : "";
  }
  double leafValuesPerRecord(int leaf) const {
    return has(leaf) ? static_cast<double>(columns_.leaf_values_per_record(leaf)) : 0;
  }
  double leafBytesPerRecord(int leaf) const {
    return has(leaf) ? static_cast<double>(columns_.leaf_bytes_per_record(leaf)) : 0;
  }

  // zcw_split_records: input slot 0 the records, slot 1 the outputs'
  // lengths (little-endian float64s); output slot k the k-th leaf's column.
  int split(double in_length, int outputs) {
    if (outputs < 0 || static_cast<size_t>(outputs) != columns_.leaves()) {
      last_ = columns_.status().ok() ? Status(ErrorCode::kInvalidInput, "structFields: bad call")
                                     : columns_.status();
      return 1;
    }
    std::vector<double> lengths(static_cast<size_t>(outputs));
    JsSource(1).read(0, 8 * lengths.size(), reinterpret_cast<uint8_t*>(lengths.data()));
    std::vector<JsSink> sinks;
    std::vector<ByteSink*> outs;
    std::vector<uint64_t> out_lengths;
    sinks.reserve(lengths.size());
    for (size_t k = 0; k < lengths.size(); ++k) {
      sinks.emplace_back(static_cast<int>(k));
      outs.push_back(&sinks.back());
      out_lengths.push_back(static_cast<uint64_t>(lengths[k]));
    }
    JsSource in;
    last_ = columns_.split(in, static_cast<uint64_t>(in_length), outs, out_lengths, g_scratch,
                           active_impl());
    return last_.ok() ? 0 : 1;
  }

 private:
  bool has(int leaf) const {
    return columns_.status().ok() && leaf >= 0 && static_cast<size_t>(leaf) < columns_.leaves();
  }
  RecordColumns columns_;
};

// vlen-bytes: the layout parsed and checked; the JS layer makes the items.
class JsVlenBytesCodec final : public Counted {
 public:
  explicit JsVlenBytesCodec(const std::string& shape) {
    std::vector<uint64_t> dims;
    refused_ = parse_shape("vlen-bytes", shape, &dims);
    if (refused_.ok()) codec_ = std::make_unique<VlenBytesCodec>(std::move(dims));
  }
  Outcome status() const { return to_outcome(status_of()); }
  double items() const { return ok() ? static_cast<double>(codec_->items()) : 0; }

  // zcw_vlen_bytes_decode: input slot 0 the chunk; output slot 0 the items'
  // bytes (`data_length`, which the JS layer computed as in_length - 4 -
  // 4 * items), slot 1 their lengths (u32 little-endian).
  int decode(double in_length, double data_length) {
    if (!ok()) {
      last_ = status_of();
      return 1;
    }
    JsSource in;
    JsSink data(0), lengths(1);
    last_ = codec_->decode(in, static_cast<uint64_t>(in_length), data,
                           static_cast<uint64_t>(data_length), lengths, g_scratch);
    return last_.ok() ? 0 : 1;
  }

 private:
  bool ok() const { return codec_ && codec_->status().ok(); }
  Status status_of() const { return codec_ ? codec_->status() : refused_; }
  std::unique_ptr<VlenBytesCodec> codec_;
  Status refused_;
};

struct DataTypeJs {
  std::string code = "OK";
  std::string message;
  std::string name;
  std::string typeClass;
  uint32_t componentBits = 0;
  uint32_t componentCount = 0;
  uint32_t containerBytes = 0;
  // Narrower floats only (floatFormat non-empty): the format's layout as
  // kFloatFormats holds it (exponent and mantissa bits, bias, kind), the
  // spec's NaN code (-1: none), whether it has infinities and its largest
  // finite value. The JS copy of the layouts
  // (js/floats/float-formats.js) is tested against these.
  std::string floatFormat;
  int floatNanCode = -1;
  bool floatHasInfinity = false;
  double floatLargest = 0;
  uint32_t floatMantissaBits = 0;
  uint32_t floatExponentBits = 0;
  int32_t floatBias = 0;
  std::string floatKind;
};

const char* float_kind_name(FloatKind kind) {
  switch (kind) {
    case FloatKind::kIeee: return "ieee";
    case FloatKind::kFnuz: return "fnuz";
    case FloatKind::kFn: return "fn";
    case FloatKind::kE8m0: return "e8m0";
  }
  return "";
}

DataTypeJs data_type_info(const std::string& descriptor) {
  DataTypeJs out;
  DataType type;
  const Status s = lookup_data_type("zarr-codecs-wasm", descriptor, &type);
  out.code = error_code_name(s.code());
  out.message = s.message();
  if (!s.ok()) return out;
  out.name = type.name;
  out.typeClass = type_class_name(type.type_class);
  out.componentBits = type.component_bits;
  out.componentCount = type.component_count;
  out.containerBytes = type.container_bytes;
  if (const FloatFormat* f = type.format) {
    out.floatFormat = std::string(f->name);
    out.floatNanCode = f->kind == FloatKind::kFn ? -1 : static_cast<int>(f->nan_code);
    out.floatHasInfinity = f->kind == FloatKind::kIeee;
    const uint32_t bits = widen_code_reference(*f, f->max_finite_code());
    float largest;
    std::memcpy(&largest, &bits, 4);
    out.floatLargest = largest;
    out.floatMantissaBits = f->mantissa_bits;
    out.floatExponentBits = f->exponent_bits;
    out.floatBias = f->bias;
    out.floatKind = float_kind_name(f->kind);
  }
  return out;
}

bool set_implementation(const std::string& name) {
  Impl impl;
  if (!parse_impl(name, &impl) || !impl_available(impl)) return false;
  active_impl() = impl;
  return true;
}

std::string implementation_name() { return impl_name(active_impl()); }

Outcome read_outcome() { return to_outcome(read_status()); }
Outcome decompress_outcome() { return to_outcome(decompress_status()); }

// The read exports' common part: the placement parsed and checked, then
// `run` (which returns a Status), its outcome kept for readStatus().
template <typename Run>
int with_placement(const double* desc, uint8_t* band, Run run) {
  Placement placement;
  Status s = parse_placement(desc, band, &placement);
  if (s.ok()) s = run(placement);
  read_status() = s;
  return s.ok() ? 0 : 1;
}
int live_instances() { return g_live; }

}  // namespace zcw::bindings

using zcw::bindings::JsCodec;
using zcw::bindings::JsN5BlockCodec;
using zcw::bindings::JsRecordColumns;
using zcw::bindings::JsVlenBytesCodec;

namespace zcw::bindings {
// embind binds a member function to the class that declares it, so the
// members Counted declares are bound per class through these.
template <typename T>
Outcome last_status_of(const T& t) { return t.lastStatus(); }
template <typename T>
double handle_of(const T& t) { return t.handle(); }
}  // namespace zcw::bindings

extern "C" {

EMSCRIPTEN_KEEPALIVE int zcw_decode(JsCodec* codec, double in_length, double out_length) {
  return codec->run(true, in_length, out_length);
}

EMSCRIPTEN_KEEPALIVE int zcw_encode(JsCodec* codec, double in_length, double out_length) {
  return codec->run(false, in_length, out_length);
}

EMSCRIPTEN_KEEPALIVE int zcw_n5_decode(JsN5BlockCodec* codec, double in_length, int rank,
                                       int fill_length, double out_length) {
  return codec->decode(in_length, rank, fill_length, out_length);
}

EMSCRIPTEN_KEEPALIVE int zcw_n5_encode(JsN5BlockCodec* codec, double in_length, double out_length) {
  return codec->encode(in_length, out_length);
}

EMSCRIPTEN_KEEPALIVE int zcw_split_records(JsRecordColumns* columns, double in_length, int outputs) {
  return columns->split(in_length, outputs);
}

EMSCRIPTEN_KEEPALIVE int zcw_vlen_bytes_decode(JsVlenBytesCodec* codec, double in_length,
                                              double data_length) {
  return codec->decode(in_length, data_length);
}

// read (js/read/): bands of the output live in wasm memory between these.
EMSCRIPTEN_KEEPALIVE uint8_t* zcw_alloc(double bytes) {
  if (!(bytes >= 1 && bytes <= 2147483648.0)) return nullptr;
  return static_cast<uint8_t*>(std::malloc(static_cast<size_t>(bytes)));
}

EMSCRIPTEN_KEEPALIVE void zcw_free(uint8_t* at) { std::free(at); }

EMSCRIPTEN_KEEPALIVE int zcw_read_decode(JsCodec* codec, double in_length, const double* desc, uint8_t* band) {
  return zcw::bindings::with_placement(desc, band, [&](const zcw::Placement& p) {
    return codec->place(in_length, p, band) == 0 ? zcw::Status::Ok() : codec->last();
  });
}

EMSCRIPTEN_KEEPALIVE int zcw_read_n5(JsN5BlockCodec* codec, double in_length, int rank, int fill_length,
                                     const double* desc, uint8_t* band) {
  return zcw::bindings::with_placement(desc, band, [&](const zcw::Placement& p) {
    zcw::bindings::JsSource in;
    return codec->place(in, in_length, rank, fill_length, p, band) == 0 ? zcw::Status::Ok()
                                                                         : codec->last();
  });
}

// read's chain in wasm (bindings/read_chain.h): a compressed chunk, or an
// N5 block's compressed payload, decoded into the chain buffer, then placed.
EMSCRIPTEN_KEEPALIVE int zcw_read_chain(int kind, const uint8_t* in, double in_length, double decoded_length,
                                        double token, JsCodec* codec, const double* desc, uint8_t* band) {
  return zcw::bindings::with_placement(desc, band, [&](const zcw::Placement& p) {
    const uint8_t* decoded = nullptr;
    zcw::Status s = zcw::bindings::chain_decoded(kind, in, in_length, decoded_length, token, &decoded);
    if (!s.ok()) return s;
    zcw::MemorySource source(decoded);
    if (codec == nullptr) return zcw::bindings::place_copy_from(source, static_cast<uint64_t>(decoded_length), p, band);
    return codec->place_from(source, decoded_length, p, band) == 0 ? zcw::Status::Ok() : codec->last();
  });
}

EMSCRIPTEN_KEEPALIVE int zcw_read_n5_chain(int kind, const uint8_t* in, double in_length, double decoded_length,
                                           double token, JsN5BlockCodec* codec, int rank, int fill_length,
                                           const double* desc, uint8_t* band) {
  return zcw::bindings::with_placement(desc, band, [&](const zcw::Placement& p) {
    const uint8_t* decoded = nullptr;
    zcw::Status s = zcw::bindings::chain_decoded(kind, in, in_length, decoded_length, token, &decoded);
    if (!s.ok()) return s;
    zcw::MemorySource source(decoded);
    return codec->place(source, decoded_length, rank, fill_length, p, band) == 0 ? zcw::Status::Ok()
                                                                                 : codec->last();
  });
}

// read's array -> array steps (bindings/read_values.h): a chunk's bytes,
// decompressed (kind >= 0, as zcw_read_chain) or as they are (kind -1),
// run through the value program at `program` into place.
EMSCRIPTEN_KEEPALIVE int zcw_read_values(int kind, const uint8_t* in, double in_length, double decoded_length,
                                         double token, const double* program, const double* desc, uint8_t* band) {
  return zcw::bindings::with_placement(desc, band, [&](const zcw::Placement& p) {
    zcw::ValueProgram parsed;
    zcw::Status s = zcw::parse_value_program(program, &parsed);
    if (!s.ok()) return s;
    const uint8_t* decoded = in;
    if (kind >= 0) {
      s = zcw::bindings::chain_decoded(kind, in, in_length, decoded_length, token, &decoded);
      if (!s.ok()) return s;
    } else if (in_length != decoded_length) {
      return zcw::Status(zcw::ErrorCode::kInvalidInput, "read: the chunk holds " + std::to_string(static_cast<uint64_t>(in_length)) +
                                                          " bytes, expected " + std::to_string(static_cast<uint64_t>(decoded_length)));
    }
    return zcw::bindings::place_program_values(parsed, decoded, static_cast<uint64_t>(decoded_length),
                                               zcw::bindings::active_impl(), p, band);
  });
}

EMSCRIPTEN_KEEPALIVE int zcw_read_copy(double in_length, const double* desc, uint8_t* band) {
  return zcw::bindings::with_placement(desc, band, [&](const zcw::Placement& p) {
    return zcw::bindings::place_copy(static_cast<uint64_t>(in_length), p, band, zcw::bindings::g_scratch);
  });
}

EMSCRIPTEN_KEEPALIVE int zcw_read_fill(double pattern_length, const double* desc, uint8_t* band) {
  return zcw::bindings::with_placement(desc, band, [&](const zcw::Placement& p) {
    return zcw::bindings::place_fill(static_cast<uint64_t>(pattern_length), p, band);
  });
}

EMSCRIPTEN_KEEPALIVE int zcw_abi_version() { return ZCW_ABI_VERSION; }

}  // extern "C"

EMSCRIPTEN_BINDINGS(zarr_codecs_wasm) {
  using namespace emscripten;
  using namespace zcw::bindings;

  value_object<Outcome>("Outcome")
      .field("code", &Outcome::code)
      .field("message", &Outcome::message);

  value_object<DataTypeJs>("DataType")
      .field("code", &DataTypeJs::code)
      .field("message", &DataTypeJs::message)
      .field("name", &DataTypeJs::name)
      .field("typeClass", &DataTypeJs::typeClass)
      .field("componentBits", &DataTypeJs::componentBits)
      .field("componentCount", &DataTypeJs::componentCount)
      .field("containerBytes", &DataTypeJs::containerBytes)
      .field("floatFormat", &DataTypeJs::floatFormat)
      .field("floatNanCode", &DataTypeJs::floatNanCode)
      .field("floatHasInfinity", &DataTypeJs::floatHasInfinity)
      .field("floatLargest", &DataTypeJs::floatLargest)
      .field("floatMantissaBits", &DataTypeJs::floatMantissaBits)
      .field("floatExponentBits", &DataTypeJs::floatExponentBits)
      .field("floatBias", &DataTypeJs::floatBias)
      .field("floatKind", &DataTypeJs::floatKind);

  class_<JsCodec>("Codec")
      .function("status", &JsCodec::status)
      .function("decodedBytes", &JsCodec::decodedBytes)
      .function("encodedBytes", &JsCodec::encodedBytes)
      .function("decodeIsCopy", &JsCodec::decodeIsCopy)
      .function("encodeIsCopy", &JsCodec::encodeIsCopy)
      .function("singleBlock", &JsCodec::singleBlock)
      .function("valueType", &JsCodec::valueType)
      .function("valuesPerElement", &JsCodec::valuesPerElement)
      .function("encodedSizeFor", &JsCodec::encodedSizeFor)
      .function("lastStatus", &last_status_of<JsCodec>)
      .function("handle", &handle_of<JsCodec>)
      .function("runKernel", &JsCodec::runKernel);
  class_<JsBytesCodec, base<JsCodec>>("BytesCodec")
      .constructor<const std::string&, const std::string&, const std::string&, const std::string&>();
  class_<JsPackBitsCodec, base<JsCodec>>("PackBitsCodec")
      .constructor<const std::string&, double, double, const std::string&, const std::string&,
                   const std::string&>();
  class_<JsNumcodecsPackBitsCodec, base<JsCodec>>("NumcodecsPackBitsCodec")
      .constructor<const std::string&, const std::string&>();
  class_<JsN5BlockCodec>("N5BlockCodec")
      .constructor<const std::string&, const std::string&, const std::string&>()
      .function("status", &JsN5BlockCodec::status)
      .function("chunkBytes", &JsN5BlockCodec::chunkBytes)
      .function("valueType", &JsN5BlockCodec::valueType)
      .function("lastStatus", &last_status_of<JsN5BlockCodec>)
      .function("handle", &handle_of<JsN5BlockCodec>);
  class_<JsRecordColumns>("RecordColumns")
      .constructor<const std::string&, bool>()
      .function("status", &JsRecordColumns::status)
      .function("recordBytes", &JsRecordColumns::recordBytes)
      .function("leaves", &JsRecordColumns::leaves)
      .function("leafValueType", &JsRecordColumns::leafValueType)
      .function("leafValuesPerRecord", &JsRecordColumns::leafValuesPerRecord)
      .function("leafBytesPerRecord", &JsRecordColumns::leafBytesPerRecord)
      .function("lastStatus", &last_status_of<JsRecordColumns>)
      .function("handle", &handle_of<JsRecordColumns>);

  class_<JsVlenBytesCodec>("VlenBytesCodec")
      .constructor<const std::string&>()
      .function("status", &JsVlenBytesCodec::status)
      .function("items", &JsVlenBytesCodec::items)
      .function("lastStatus", &last_status_of<JsVlenBytesCodec>)
      .function("handle", &handle_of<JsVlenBytesCodec>);

  function("dataTypeInfo", &data_type_info);
  function("setImplementation", &set_implementation);
  function("implementation", &implementation_name);
  function("liveInstances", &live_instances);
  function("readStatus", &read_outcome);
  function("decompressStatus", &decompress_outcome);
}
