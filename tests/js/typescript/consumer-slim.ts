// zarr-codecs-wasm/slim has the main entry's names and types, and
// zarr-codecs-wasm/fizarrita-worker is a worker script that exports
// nothing: a consumer imports it for its side effect, or resolves its URL.
import * as slim from "zarr-codecs-wasm/slim";
import * as main from "zarr-codecs-wasm";
import * as worker from "zarr-codecs-wasm/fizarrita-worker";
import "zarr-codecs-wasm/fizarrita-worker";

export async function start(bytes: ArrayBuffer): Promise<main.PackBitsCodec> {
  await slim.ready({ wasm: bytes });
  const codec: main.PackBitsCodec = slim.PackBitsCodec.fromConfig({}, { dataType: "int4", shape: [2] });
  const same: typeof main.ready = slim.ready;
  const error: main.ZarrCodecError = new slim.ZarrCodecError("NOT_READY", "call ready({ wasm }) first");
  return same === main.ready || error.code === "NOT_READY" ? codec : codec;
}

const exported: [keyof typeof worker] extends [never] ? true : false = true;
export { exported };
