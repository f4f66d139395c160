// A Web Worker with its own wasm instance: decodes the raw chunk bytes the
// page fetched and sends the values back (transferred, not copied). The
// time is the mean of `repeat` decodes after the first (browsers round
// performance.now() to 0.1 ms).
import { PackBitsCodec, ready } from "../../js/index.js";

const codecs = new Map();

self.onmessage = async ({ data: job }) => {
  try {
    await ready();
    const key = JSON.stringify([job.configuration, job.dataType, job.shape]);
    if (!codecs.has(key)) {
      codecs.set(key, PackBitsCodec.fromConfig(job.configuration, { dataType: job.dataType, shape: job.shape }));
    }
    const codec = codecs.get(key);
    const input = new Uint8Array(job.bytes);
    const { data } = codec.decode(input);
    const t0 = performance.now();
    for (let i = 0; i < job.repeat; i++) codec.decode(input);
    const ms = (performance.now() - t0) / job.repeat;
    self.postMessage({ id: job.id, data, ms }, [data.buffer]);
  } catch (error) {
    self.postMessage({ id: job.id, error: `${error.code ?? error.name}: ${error.message}` });
  }
};
