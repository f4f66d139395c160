// Misuses without @ts-expect-error: the test expects tsc to fail on
// exactly these lines, with these messages, which shows a refused use
// fails the test and what a user is told.
import { nativeCodecs, read, withDataTypes, type ReadableArray } from "zarr-codecs-wasm";

withDataTypes({ get: () => undefined }, { floats: "native" });
new (nativeCodecs().BytesCodec)("uint8", {}, [1]).dataType();
declare const image: ReadableArray<Uint16Array>;
void read(image, null, { dtype: "flaot32" }); // a misspelt dtype: the message lists the types
