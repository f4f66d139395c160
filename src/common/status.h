// Errors are values: every fallible core function returns a Status. Nothing in
// the core throws, so nothing can unwind across the wasm boundary or abort the
// instance; the bindings turn a Status into the package's JS error.
#pragma once

#include <string>
#include <utility>

namespace zcw {

enum class ErrorCode {
  kOk = 0,
  kUnknownDataType,         // the name is in no spec
  kUnsupportedDataType,     // a real type this codec cannot encode
  kInvalidConfiguration,    // a config member of the wrong value
  kInvalidShape,            // element count not a non-negative integer
  kInvalidInput,            // an argument that cannot be a chunk's size
  kSizeOverflow,            // byte sizes beyond what can be addressed
  kLengthMismatch,          // encoded or decoded buffer of the wrong size
  kPaddingMismatch,         // a padding-count byte that disagrees
  kValueOutOfRange,         // encode: a value the stored type cannot hold
  kOutOfMemory,             // wasm memory could not grow that far
  kCorruptData,             // a compressed frame that is not one: truncated, garbage, trailing bytes
  kChecksumMismatch,        // a compressed frame whose checksum disagrees with what it decodes to
  kUnsupportedCodec,        // a valid frame of a kind not built in (snappy in blosc, a zstd dictionary)
};

// Stable names, exported to JS as `error.code`.
inline const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "OK";
    case ErrorCode::kUnknownDataType: return "UNKNOWN_DATA_TYPE";
    case ErrorCode::kUnsupportedDataType: return "UNSUPPORTED_DATA_TYPE";
    case ErrorCode::kInvalidConfiguration: return "INVALID_CONFIGURATION";
    case ErrorCode::kInvalidShape: return "INVALID_SHAPE";
    case ErrorCode::kInvalidInput: return "INVALID_INPUT";
    case ErrorCode::kSizeOverflow: return "SIZE_OVERFLOW";
    case ErrorCode::kLengthMismatch: return "LENGTH_MISMATCH";
    case ErrorCode::kPaddingMismatch: return "PADDING_MISMATCH";
    case ErrorCode::kValueOutOfRange: return "VALUE_OUT_OF_RANGE";
    case ErrorCode::kOutOfMemory: return "OUT_OF_MEMORY";
    case ErrorCode::kCorruptData: return "CORRUPT_DATA";
    case ErrorCode::kChecksumMismatch: return "CHECKSUM_MISMATCH";
    case ErrorCode::kUnsupportedCodec: return "UNSUPPORTED_CODEC";
  }
  return "UNKNOWN";
}

class Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
};

}  // namespace zcw
