// Using the codec classes directly on TypedArrays, without zarrita.
//
//   node examples/node/direct-codecs.mjs
import {
  BytesCodec,
  float4E2m1fnToFloat32,
  PackBitsCodec,
  ready,
  ZarrCodecError,
} from "zarr-codecs-wasm";

await ready(); // load the wasm module once; the classes are synchronous now

// 12-bit camera pixels in uint16: 1.5 bytes per pixel instead of 2.
const pixels = Uint16Array.from({ length: 64 * 64 }, (_, i) => (i * 37) % 4096);
const camera = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [64, 64] });
const packed = camera.encode({ data: pixels });
const { data, shape, stride } = camera.decode(packed);
console.log(`uint16 12-bit: ${pixels.byteLength} bytes -> ${packed.byteLength} packed; decoded ${data.constructor.name}(${data.length}), shape [${shape}], stride [${stride}], exact: ${data.every((v, i) => v === pixels[i])}`);

// Decoding into a reused buffer allocates nothing (viewers reuse tiles).
const tile = new Uint16Array(64 * 64);
camera.decodeInto(packed, tile);
console.log(`decodeInto a reused tile: exact: ${tile.every((v, i) => v === pixels[i])}`);

// int4 model weights: two per byte, sign-extended to Int8Array.
const weights = PackBitsCodec.fromConfig(undefined, { dataType: "int4", shape: [6] });
const w = weights.decode(new Uint8Array([0x8f, 0x10, 0x7e]));
console.log(`int4 weights from bytes 8F 10 7E: [${Array.from(w.data).join(", ")}]`);

// float4_e2m1fn values, widened for display.
const f4 = PackBitsCodec.fromConfig(undefined, { dataType: "float4_e2m1fn", shape: [4] });
console.log(`float4_e2m1fn from bytes 21 F7: [${Array.from(float4E2m1fnToFloat32(f4.decode(new Uint8Array([0x21, 0xf7])).data)).join(", ")}]`);

// Big-endian float64 from another system.
const be = BytesCodec.fromConfig({ endian: "big" }, { dataType: "float64", shape: [1] });
console.log(`float64 big-endian 40 09 21 FB 54 44 2D 18: ${be.decode(new Uint8Array([0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18])).data[0]}`);

// Errors say what was expected and what was found.
try {
  camera.decode(packed.subarray(1));
} catch (error) {
  if (!(error instanceof ZarrCodecError)) throw error;
  console.log(`${error.code}: ${error.message}`);
}
