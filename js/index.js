// zarr-codecs-wasm: the Zarr v3 `bytes` and `packbits` codecs in WebAssembly.
export { BytesCodec } from "./bytes.js";
export { ZarrCodecError } from "./errors.js";
export { hasWasmSimd, ready } from "./module.js";
export { NumcodecsPackBitsCodec } from "./numcodecs-packbits.js";
export { PackBitsCodec } from "./packbits.js";
export { register } from "./register.js";
export {
  bfloat16ToFloat32,
  float16ToFloat32,
  float4E2m1fnToFloat32,
  float6E2m3fnToFloat32,
  float6E3m2fnToFloat32,
} from "./widen.js";
