import { BytesCodec, PackBitsCodec, ready } from "zarr-codecs-wasm";
import { decodeCases } from "./decode-cases.js";
import { serveRequests } from "./worker-client.js";

serveRequests(async ({ cases }) => {
  await ready();
  return decodeCases({ BytesCodec, PackBitsCodec }, cases);
});
