import { BytesCodec, PackBitsCodec, ready } from "zarr-codecs-wasm";
import { decodeCases } from "./decode-cases.js";
import { fetchedPaths, serveRequests } from "./worker-client.js";

serveRequests(async ({ cases }) => {
  await ready();
  return { decoded: decodeCases({ BytesCodec, PackBitsCodec }, cases), fetched: fetchedPaths() };
});
