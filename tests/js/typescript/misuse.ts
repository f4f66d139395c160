// Two misuses without @ts-expect-error: the test expects tsc to fail on
// exactly these lines, which shows a refused use fails the test.
import { nativeCodecs, withDataTypes } from "zarr-codecs-wasm";

withDataTypes({ get: () => undefined }, { floats: "native" });
new (nativeCodecs().BytesCodec)("uint8", {}, [1]).dataType();
