// With esnext's lib: `using` frees a codec at the end of its block
// ([Symbol.dispose] is declared once the lib has Symbol.dispose), and
// float16 may decode into a Float16Array.
import { BytesCodec, N5DefaultCodec, NumcodecsPackBitsCodec, PackBitsCodec, type DecodedArray } from "zarr-codecs-wasm";

export function scoped(bits: Uint8Array): number {
  using bytes = BytesCodec.fromConfig({ endian: "little" }, { dataType: "float16", shape: [2] });
  using packbits = PackBitsCodec.fromConfig({}, { dataType: "int4", shape: [2] });
  using filter = NumcodecsPackBitsCodec.fromConfig({}, { dataType: "bool", shape: [3] });
  using n5 = N5DefaultCodec.fromConfig({ codecs: [{ name: "transpose", configuration: { order: [0] } }, { name: "bytes" }] }, { dataType: "uint8", shape: [1] });
  const data: DecodedArray = bytes.decode(bits).data;
  const half: Float16Array | undefined = data instanceof Float16Array ? data : undefined;
  packbits[Symbol.dispose]();
  return (half?.length ?? 0) + filter.computeEncodedSize(3) + n5.kind.length;
}
