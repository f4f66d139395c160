// The low-level API: the embind classes themselves (bindings/bindings.cpp),
// for callers who want TypedArrays in and out without zarrita's shapes.
// Errors are status values ({ code, message }); the caller frees each
// instance with .delete(). The package's codec classes do all of that.
import { wasm } from "./load.js";

/**
 * The module's codec classes and dataTypeInfo, once ready() has resolved.
 * @returns {{BytesCodec: Function, PackBitsCodec: Function,
 *   NumcodecsPackBitsCodec: Function, dataTypeInfo: Function}}
 */
export function nativeCodecs() {
  const m = wasm();
  return {
    BytesCodec: m.BytesCodec,
    PackBitsCodec: m.PackBitsCodec,
    NumcodecsPackBitsCodec: m.NumcodecsPackBitsCodec,
    dataTypeInfo: m.dataTypeInfo,
  };
}
