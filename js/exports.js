// What both entries export besides ready, register and withDataTypes
// (index.js, slim.js).
export { BytesCodec } from "./codecs/bytes.js";
export { NumcodecsPackBitsCodec } from "./codecs/numcodecs-packbits.js";
export { PackBitsCodec } from "./codecs/packbits.js";
export { ZarrCodecError } from "./errors.js";
export { compiledWasm, hasWasmSimd } from "./wasm/load.js";
export { nativeCodecs } from "./wasm/native.js";
export {
  bfloat16ToFloat32,
  float16ToFloat32,
  float4E2m1fnToFloat32,
  float6E2m3fnToFloat32,
  float6E3m2fnToFloat32,
  widenToFloat32,
} from "./widen.js";
export { storedDataType } from "./zarrita/with-data-types.js";
