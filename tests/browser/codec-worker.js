// One of several Web Workers decoding at once, each with its own module.
import { PackBitsCodec, ready } from "/js/index.js";

self.onmessage = async ({ data: { id, configuration, dataType, shape, packed } }) => {
  try {
    await ready();
    const codec = PackBitsCodec.fromConfig(configuration, { dataType, shape });
    const { data } = codec.decode(new Uint8Array(packed));
    self.postMessage({ id, values: Array.from(data) });
  } catch (error) {
    self.postMessage({ id, error: `${error.code ?? error.name}: ${error.message}` });
  }
};
