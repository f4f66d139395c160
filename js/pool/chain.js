// What a pool's worker can decode, in one place: the boundary between the
// chunks a worker decodes and the ones read decodes on the calling thread.
//
// A worker has no zarrita and no registry: it decodes a chunk with the
// package's own codecs only. So the calling thread describes an array's
// chain once, as plain data that crosses postMessage (the chain read
// learnt from the metadata, the array's data type, chunk shape and fill,
// and withDataTypes' conversion itself rather than its ticket), and the
// worker builds the same ChunkDecoder read builds (read/decode/chunk-decoder.js)
// from it, with WORKER_CODECS as its only registry. Decoding is then the
// same code on both sides, errors included.
//
// An array whose chain holds a bytes -> bytes codec that is not one of
// WORKER_CODECS (numcodecs.js's, where register() was told to keep
// zarrita's compressors) is read on the calling thread, as read reads it without a pool. To let
// workers decode more, add the codec class here under its registry names
// (both sides read this map), and have register() put the same class in
// zarrita's registry: the calling thread checks that the registry's codec
// is this very class.
import { ShuffleCodec } from "../codecs/shuffle.js";
import { Crc32cCodec } from "../codecs/crc32c.js";
import { COMPRESSOR_CLASSES } from "../compressors/codecs.js";
import { exportConversion, importConversion, STORED_CODEC } from "../data-types/stored-codec.js";
import { registeredRegistries } from "../zarrita/registration.js";
import { chunkDecoder } from "../read/decode/chunk-decoder.js";
import { WRITTEN_AS_FLOAT } from "../json/lossless.js";

/** Registry name -> the package's bytes -> bytes codec class a worker runs. */
export const WORKER_CODECS = new Map([
  ["shuffle", ShuffleCodec],
  ["numcodecs.shuffle", ShuffleCodec],
  ["crc32c", Crc32cCodec],
  // The compressors decoded in the package's wasm (js/compressors/).
  ...COMPRESSOR_CLASSES,
]);

// The same, as a registry (name -> async loader) for chunkDecoder.
const workerRegistry = new Map([...WORKER_CODECS].map(([name, Codec]) => [name, async () => Codec]));

/**
 * @typedef {object} WorkerChain  what a worker needs to decode an array's chunks
 * @property {object} chain       codec-chain.js's Chain, without what decoding does not use
 * @property {{dataType: string, chunkShape: number[], elementBytes: number, fillValue: unknown}} array
 * @property {object | undefined} conversion  withDataTypes' conversion (stored-codec.js)
 * @property {Uint8Array} fill    one element of the fill (missing chunks)
 * @property {number[] | null} order  the chunks' storage order
 * @property {"codec" | "n5" | "copy"} kind
 */

// The compressor an n5_default chain names (after transpose and bytes).
function n5Compressor(configuration) {
  const codecs = Array.isArray(configuration?.codecs) ? configuration.codecs : [];
  return codecs.find((c) => c?.name !== "transpose" && c?.name !== "bytes")?.name;
}

/**
 * The array's chain as a worker takes it, or { unsupported: why } where a
 * worker cannot decode it (then read decodes it on the calling thread).
 * @param {import("../read/plan/plan.js").Plan} plan
 * @param {string} dataType the array's (zarrita's) data type
 * @returns {Promise<WorkerChain | {unsupported: string}>}
 */
export async function workerChainOf(plan, dataType) {
  const { decoder, chain } = plan;
  if (!decoder || !chain) return { unsupported: plan.viaZarrita ?? "read does not decode this array itself" };
  for (const { name, codec } of decoder.bytesCodecs) {
    if (WORKER_CODECS.get(name) !== codec?.constructor) return { unsupported: `the ${name} codec is not one a worker has` };
  }
  if (chain.arrayToBytes.name === "n5_default") {
    const name = n5Compressor(chain.arrayToBytes.configuration);
    if (name !== undefined) {
      const load = registeredRegistries()[0]?.get(name);
      const Codec = typeof load === "function" ? await load() : undefined;
      if (WORKER_CODECS.get(name) !== Codec) return { unsupported: `the ${name} compressor of N5 blocks is not one a worker has` };
    }
  }
  let conversion;
  if (chain.arrayToBytes.name === STORED_CODEC) {
    conversion = exportConversion(chain.arrayToBytes.configuration?.ticket);
    if (!conversion) return { unsupported: "withDataTypes' conversion is no longer live" };
    // Strings are JavaScript values: never decoded in a worker.
    if (conversion.strings) return { unsupported: "strings are JavaScript values" };
  }
  const { format, order, arrayToArray, listed, arrayToBytes, bytesToBytes, dataType: stored, chunkShape } = chain;
  return {
    // Which scalars the metadata wrote as floats (json/lossless.js): a
    // symbol's mark does not cross postMessage, a list does.
    chain: { format, order, arrayToArray: arrayToArray?.map((e) => ({ ...e, floats: e.configuration?.[WRITTEN_AS_FLOAT] })), listed, arrayToBytes, bytesToBytes, dataType: stored, chunkShape },
    array: { dataType, chunkShape: plan.za.chunkShape, elementBytes: plan.elementBytes, fillValue: plan.za.fillValue, outputType: plan.outputType },
    conversion,
    fill: plan.fill,
    order: plan.order,
    kind: decoder.kind,
    inWasm: Boolean(decoder.inWasm),
  };
}

/**
 * In a worker: the ChunkDecoder of a WorkerChain (read/decode/chunk-decoder.js),
 * with the package's codecs only.
 * @param {WorkerChain} described
 */
export async function decoderInWorker(described) {
  const { chain, array, conversion } = described;
  if (conversion) importConversion(chain.arrayToBytes.configuration.ticket, conversion);
  for (const { configuration, floats } of chain.arrayToArray ?? []) if (floats && configuration) configuration[WRITTEN_AS_FLOAT] = floats;
  const decoder = await chunkDecoder(chain, array, [workerRegistry]);
  if (decoder.unsupported) throw new Error(`read pool: a worker cannot decode this chain (${decoder.unsupported})`);
  return decoder;
}
