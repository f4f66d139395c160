import { BytesCodec, PackBitsCodec, ready } from "zarr-codecs-wasm/slim";
import { decodeCases } from "./decode-cases.js";
import { fetchedPaths, serveRequests } from "./worker-client.js";

serveRequests(async ({ cases, module }) => {
  await ready({ wasm: module });
  return { decoded: decodeCases({ BytesCodec, PackBitsCodec }, cases), fetched: fetchedPaths() };
});
