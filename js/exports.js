// What both entries export besides ready, register, withDataTypes and
// withN5 (index.js, slim.js).
export { BytesCodec } from "./codecs/bytes.js";
export { NumcodecsPackBitsCodec } from "./codecs/numcodecs-packbits.js";
export { PackBitsCodec } from "./codecs/packbits.js";
export { VlenBytesCodec } from "./codecs/vlen-bytes.js";
export { CastValueCodec } from "./array-to-array/cast-value.js";
export { ScaleOffsetCodec } from "./array-to-array/scale-offset.js";
export { N5DefaultCodec } from "./n5/n5-default-codec.js";
export { ZarrCodecError } from "./errors.js";
export { compiledWasm, hasWasmSimd } from "./wasm/load.js";
export { diagnostics } from "./diagnostics.js";
export { configureMemory } from "./memory-settings.js";
export { nativeCodecs } from "./codecs/deprecated-native.js";
export {
  bfloat16ToFloat32,
  float16ToFloat32,
  float4E2m1fnToFloat32,
  float6E2m3fnToFloat32,
  float6E3m2fnToFloat32,
  widenToFloat32,
} from "./widen.js";
export { isPresented, storedDataType } from "./data-types/with-data-types.js";
export { byteStrings } from "./data-types/byte-string-values.js";
export { structFields } from "./records/struct-fields.js";
export { withN5 } from "./n5/with-n5.js";
export { createReadPool } from "./pool/read-pool.js";
export { createChunkCache } from "./read/cache/chunk-cache.js";
export { createReadScheduler } from "./read/fetch/scheduling/read-scheduler.js";
export { withScheduler } from "./with-scheduler.js";
