// The JS-visible surface: one embind class per codec over the C++ codec,
// TypedArrays in and TypedArrays out, errors as status values (nothing here
// throws into JavaScript, so no C++ frame is ever unwound past its
// destructors). The package's JS classes own one instance each and throw
// the package's error from a failed status.
//
// The hot path of those JS classes is one plain export per direction
// (zcw_decode / zcw_encode on the instance's address): no embind
// conversion per call, and the block streaming runs in C++.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cstring>
#include <memory>
#include <string>

#include "active_impl.h"
#include "codecs/bytes_codec.h"
#include "codecs/numcodecs_packbits.h"
#include "codecs/packbits_codec.h"
#include "config_from_js.h"
#include "js_io.h"
#include "kernels/widen.h"

namespace zcw::bindings {
namespace {

// Bumped whenever the JS wrapper and this module change how they talk, so
// that a .wasm from another release is refused with a clear message.
constexpr int kAbiVersion = 2;

Scratch g_scratch;  // one per module instance; JS is single-threaded per instance
int g_live_codecs = 0;

struct Outcome {
  std::string code = "OK";
  std::string message;
};

Outcome to_outcome(const Status& s) {
  return Outcome{error_code_name(s.code()), s.message()};
}

// The element type of the decoded container, as JS names TypedArrays'
// contents: "int8" .. "uint64", "float16", "float32", "float64", "bool".
std::string value_type(const Codec& c) {
  const DataType& t = c.type();
  if (c.presentation() == Presentation::kFloat32) return "float32";
  const std::string bits = std::to_string(8 * t.container_bytes);
  switch (t.type_class) {
    case TypeClass::kBool: return "bool";
    case TypeClass::kSignedInt: return "int" + bits;
    case TypeClass::kUnsignedInt: return "uint" + bits;
    case TypeClass::kRaw: return "uint8";
    case TypeClass::kFloat:
      if (t.container_bytes >= 4) return "float" + bits;
      if (t.format && t.format->name == "float16") return "float16";
      return "uint" + bits;  // bit patterns
  }
  return "uint8";
}

Presentation presentation_or(const std::string& codec, const std::string& name,
                             Status* status) {
  Presentation p = Presentation::kNative;
  if (!parse_presentation(name, &p)) {
    *status = Status(ErrorCode::kInvalidConfiguration,
                     codec + ": presentation must be \"native\" or \"float32\", got \"" +
                         name.substr(0, 32) + "\"");
  }
  return p;
}

}  // namespace

// What the three classes share: sizes, the status of the configuration,
// and decode/encode of whole chunks.
class JsCodec {
 public:
  virtual ~JsCodec() { --g_live_codecs; }
  JsCodec(const JsCodec&) = delete;
  JsCodec& operator=(const JsCodec&) = delete;

  Outcome status() const { return to_outcome(codec_ ? codec_->status() : refused_); }
  double decodedBytes() const { return ok() ? static_cast<double>(codec_->decoded_bytes()) : 0; }
  double encodedBytes() const { return ok() ? static_cast<double>(codec_->encoded_bytes()) : 0; }
  bool decodeIsCopy() const { return ok() && codec_->decode_is_copy(); }
  bool encodeIsCopy() const { return ok() && codec_->encode_is_copy(); }
  bool singleBlock() const { return ok() && codec_->single_block(); }
  std::string valueType() const { return ok() ? value_type(*codec_) : ""; }
  std::string dataType() const { return ok() ? codec_->type().name : ""; }

  // The encoded size of `decoded` decoded bytes; -1 where that is not a
  // whole number of elements (lastStatus() says why).
  double encodedSizeFor(double decoded) {
    uint64_t out = 0;
    last_ = !ok() ? status_of() : !(decoded >= 0 && decoded <= 9007199254740991.0)
                      ? Status(ErrorCode::kInvalidInput, "computeEncodedSize: " + describe_number(decoded) + " is not a byte length")
                      : codec_->encoded_size_for(static_cast<uint64_t>(decoded), &out);
    return last_.ok() ? static_cast<double>(out) : -1;
  }

  // TypedArrays (or ArrayBuffers) in and out; the output must hold exactly
  // the decoded (encoded) size.
  Outcome decode(const val& input, const val& output) { return through(true, input, output); }
  Outcome encode(const val& input, const val& output) { return through(false, input, output); }
  Outcome lastStatus() const { return to_outcome(last_); }

  // The fast path: Module.zcwIo holds Uint8Array views already.
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

  // This instance's address, for zcw_decode / zcw_encode.
  double handle() const { return static_cast<double>(reinterpret_cast<uintptr_t>(this)); }

  // The benchmark's "kernel alone": `repetitions` blocks through the
  // scratch blocks, nothing copied in or out.
  void benchmarkBlock(bool decoding, int repetitions) {
    if (ok()) codec_->run_block(decoding, repetitions, g_scratch, active_impl());
  }

 protected:
  JsCodec() { ++g_live_codecs; }
  bool ok() const { return codec_ && codec_->status().ok(); }
  Status status_of() const { return codec_ ? codec_->status() : refused_; }

  std::unique_ptr<Codec> codec_;
  Status refused_;  // a configuration refused before the codec could be built
  Status last_;

 private:
  Outcome through(bool decoding, const val& input, const val& output) {
    if (!ok()) return to_outcome(status_of());
    const val u8 = val::global("Uint8Array");
    val io = val::module_property("zcwIo");
    auto bytes = [&](const val& v) {
      if (v.instanceof(val::global("ArrayBuffer"))) return u8.new_(v);
      return u8.new_(v["buffer"], v["byteOffset"], v["byteLength"]);
    };
    io.set(0, bytes(input));
    io.set(1, bytes(output));
    run(decoding, io[0]["length"].as<double>(), io[1]["length"].as<double>());
    io.set(0, val::undefined());
    io.set(1, val::undefined());
    return to_outcome(last_);
  }
};

class JsBytesCodec final : public JsCodec {
 public:
  JsBytesCodec(const std::string& data_type, const val& configuration,
               const val& shape, const std::string& presentation) {
    std::optional<std::string> endian;
    std::vector<uint64_t> dims;
    Status& s = refused_;
    const Presentation p = presentation_or("bytes", presentation, &s);
    if (s.ok()) s = check_configuration("bytes", configuration, {"endian"}, "(expected \"endian\")");
    if (s.ok()) s = optional_string("bytes", "endian", member(configuration, "endian"), "\"big\" or \"little\"", &endian);
    if (s.ok()) s = shape_from_js("bytes", shape, &dims);
    if (!s.ok()) return;
    codec_ = std::make_unique<BytesCodec>(
        data_type, endian ? std::optional<std::string_view>(*endian) : std::nullopt,
        std::move(dims), p);
  }
};

class JsPackBitsCodec final : public JsCodec {
 public:
  JsPackBitsCodec(const std::string& data_type, const val& configuration,
                  const val& shape, const std::string& presentation) {
    std::optional<int64_t> first, last;
    std::optional<std::string> padding;
    std::vector<uint64_t> dims;
    Status& s = refused_;
    const Presentation p = presentation_or("packbits", presentation, &s);
    if (s.ok()) s = check_configuration("packbits", configuration, {"padding_encoding", "first_bit", "last_bit"}, "(expected padding_encoding, first_bit or last_bit)");
    if (s.ok()) s = optional_bit_index("first_bit", member(configuration, "first_bit"), &first);
    if (s.ok()) s = optional_bit_index("last_bit", member(configuration, "last_bit"), &last);
    if (s.ok()) s = optional_string("packbits", "padding_encoding", member(configuration, "padding_encoding"), "\"none\", \"first_byte\" or \"last_byte\"", &padding);
    if (s.ok()) s = shape_from_js("packbits", shape, &dims);
    if (!s.ok()) return;
    codec_ = std::make_unique<PackBitsCodec>(
        data_type, first, last,
        padding ? std::optional<std::string_view>(*padding) : std::nullopt,
        std::move(dims), p);
  }
};

class JsNumcodecsPackBitsCodec final : public JsCodec {
 public:
  JsNumcodecsPackBitsCodec(const std::string& data_type, const val& configuration,
                           const val& shape) {
    std::vector<uint64_t> dims;
    Status& s = refused_;
    // Zarr v2 metadata may carry numcodecs' own "id".
    s = check_configuration("numcodecs.packbits", configuration, {"id"}, "(PackBits has none)");
    if (s.ok()) s = shape_from_js("numcodecs.packbits", shape, &dims);
    if (!s.ok()) return;
    codec_ = std::make_unique<NumcodecsPackBitsCodec>(data_type, std::move(dims));
  }
};

struct DataTypeJs {
  std::string code = "OK";
  std::string message;
  std::string name;
  std::string typeClass;
  uint32_t componentBits = 0;
  uint32_t componentCount = 0;
  uint32_t containerBytes = 0;
  // Narrower floats only (floatFormat non-empty): the spec's NaN code (-1:
  // none), whether the format has infinities, its largest finite value and
  // mantissa bits (fill values are checked against them).
  std::string floatFormat;
  int floatNanCode = -1;
  bool floatHasInfinity = false;
  double floatLargest = 0;
  uint32_t floatMantissaBits = 0;
};

DataTypeJs data_type_info(const std::string& name) {
  DataTypeJs out;
  DataType type;
  const Status s = lookup_data_type("zarr-codecs-wasm", name, &type);
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
int live_codecs() { return g_live_codecs; }

}  // namespace zcw::bindings

using zcw::bindings::JsCodec;

extern "C" {

EMSCRIPTEN_KEEPALIVE int zcw_decode(JsCodec* codec, double in_length, double out_length) {
  return codec->run(true, in_length, out_length);
}

EMSCRIPTEN_KEEPALIVE int zcw_encode(JsCodec* codec, double in_length, double out_length) {
  return codec->run(false, in_length, out_length);
}

EMSCRIPTEN_KEEPALIVE int zcw_abi_version() { return zcw::bindings::kAbiVersion; }

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
      .field("floatMantissaBits", &DataTypeJs::floatMantissaBits);

  class_<JsCodec>("Codec")
      .function("status", &JsCodec::status)
      .function("decodedBytes", &JsCodec::decodedBytes)
      .function("encodedBytes", &JsCodec::encodedBytes)
      .function("decodeIsCopy", &JsCodec::decodeIsCopy)
      .function("encodeIsCopy", &JsCodec::encodeIsCopy)
      .function("singleBlock", &JsCodec::singleBlock)
      .function("valueType", &JsCodec::valueType)
      .function("dataType", &JsCodec::dataType)
      .function("encodedSizeFor", &JsCodec::encodedSizeFor)
      .function("decode", &JsCodec::decode)
      .function("encode", &JsCodec::encode)
      .function("lastStatus", &JsCodec::lastStatus)
      .function("handle", &JsCodec::handle)
      .function("benchmarkBlock", &JsCodec::benchmarkBlock);
  class_<JsBytesCodec, base<JsCodec>>("BytesCodec")
      .constructor<const std::string&, const val&, const val&, const std::string&>();
  class_<JsPackBitsCodec, base<JsCodec>>("PackBitsCodec")
      .constructor<const std::string&, const val&, const val&, const std::string&>();
  class_<JsNumcodecsPackBitsCodec, base<JsCodec>>("NumcodecsPackBitsCodec")
      .constructor<const std::string&, const val&, const val&>();

  function("dataTypeInfo", &data_type_info);
  function("setImplementation", &set_implementation);
  function("implementation", &implementation_name);
  function("liveCodecs", &live_codecs);
}
