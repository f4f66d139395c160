// Which codecs zarrita built an opened array's pipeline from, asked of
// zarrita itself, so that read need not fetch the array's metadata again.
//
// zarrita keeps the metadata it opened private, and builds each array's
// codec pipeline from it lazily: on the first decode, it calls
// Codec.fromConfig(configuration, meta) for every codec, where `meta`
// holds the whole chain (`codecs`), the data type and the chunk shape
// (zarrita 0.5, 0.6 and 0.7 alike). The codecs register() installs keep
// that `meta` on each codec they make, and answer a decode of one marker
// object (a probe) by throwing it back. read decodes the marker through the
// array's own pipeline: the first codec zarrita runs on it is the one that
// answers, so the answer is that array's, whatever other arrays load at
// the same time. Where that first codec is not one of the package's (a
// codec zarrita keeps for itself), nothing answers and read reads the
// document instead.

/** The probes being decoded now: a codec answers only these. */
import { arrayTypeOf } from "./meta.js";

const probes = new WeakSet();

class ProbeAnswer {
  constructor(meta) {
    this.meta = meta;
  }
}

const ANSWERS = Symbol("zarr-codecs-wasm.answersProbes");

/**
 * Makes a codec class's codecs answer probes: its fromConfig, replaced in
 * place (the class stays the one register's loaders hand out), makes the
 * class's own codec, with a decode that throws a probe back with the
 * `meta` zarrita built it from. Every other decode is the codec's own.
 * @template T
 * @param {T} Codec
 * @returns {T}
 */
export function answeringProbes(Codec) {
  if (typeof Codec?.fromConfig !== "function" || Object.prototype.hasOwnProperty.call(Codec, ANSWERS)) return Codec;
  const fromConfig = Codec.fromConfig;
  Codec.fromConfig = function (configuration, meta) {
    const codec = fromConfig.call(this, configuration, meta);
    const decode = codec?.decode;
    if (typeof decode !== "function" || !Object.isExtensible(codec)) return codec;
    codec.decode = function (bytes, ...rest) {
      if (probes.has(bytes)) throw new ProbeAnswer(meta);
      return decode.call(this, bytes, ...rest);
    };
    return codec;
  };
  Object.defineProperty(Codec, ANSWERS, { value: true });
  return Codec;
}

function answerIn(error) {
  // zarrita 0.7 wraps a codec's error in its CodecPipelineError (cause).
  for (let e = error, depth = 0; e && depth < 4; e = e.cause, depth++) {
    if (e instanceof ProbeAnswer) return e;
  }
  return undefined;
}

/**
 * The codecs zarrita built an array's pipeline from, with its data type
 * and chunk shape, or undefined where the pipeline's first codec is not
 * the package's.
 * @param {(bytes: Uint8Array) => Promise<unknown>} decode the array's
 *   pipeline (zarrita-array.js: `decode`)
 * @returns {Promise<{codecs: {name: string, configuration?: unknown}[], dataType: unknown, shape: number[]} | undefined>}
 */
export async function openedCodecs(decode) {
  const probe = new Uint8Array(0);
  probes.add(probe);
  try {
    await decode(probe);
    return undefined;
  } catch (error) {
    const meta = answerIn(error)?.meta;
    if (!meta || !Array.isArray(meta.codecs)) return undefined;
    // The array's own type: on zarrita 0.5 and 0.6 the chain's meta holds
    // the type its array -> array codecs store (zarrita/meta.js).
    return { codecs: meta.codecs, dataType: arrayTypeOf(meta) ?? meta.dataType ?? meta.data_type, shape: meta.shape };
  } finally {
    probes.delete(probe);
  }
}
