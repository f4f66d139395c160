// The decode stage of read: what the fetch stage gave (fetch/chunk-source.js)
// made ready for placing, as one of
//   { kind: "fill" }                 a missing chunk: the fill is placed
//   { kind: "copied", bytes }        stored as the output holds it (placed
//                                    with plain copies: place/direct-placer.js)
//   { kind: "decoded", opened }      opened by read's own decoder
//                                    (chunk-decoder.js), which decodes it
//                                    straight into its place
//   { kind: "zarrita", chunk }       decoded by zarrita ({ data, shape, stride })
// A pool's workers decode in their own threads (js/pool/); this is the
// calling thread's side.
import { arrayName } from "../../errors.js";
import { withCodecContext } from "../../zarrita/unknown-codec.js";
import { chunkWhere, withWhere } from "../chunk-where.js";

export const FILL = Object.freeze({ kind: "fill" });

/**
 * @param {object} arr the zarrita Array
 * @param {import("../plan/plan.js").Plan} plan
 * @param {{direct?: boolean}} [how] direct: stored bytes are placed as they are
 * @returns {(c: {coords: number[]}, fetched: import("../fetch/chunk-source.js").Fetched) => Promise<object>}
 */
export function decodeStage(arr, plan, how = {}) {
  const { za, decoder } = plan;
  return async (c, fetched) => {
    if (fetched.missing) return FILL;
    // read's dtype: a chunk zarrita decoded, cast (plan/typed-plan.js).
    const convert = plan.convert ?? ((chunk) => chunk);
    if (fetched.chunk) return { kind: "zarrita", chunk: convert(fetched.chunk) };
    if (how.direct) return { kind: "copied", bytes: fetched.bytes };
    if (decoder) {
      try {
        return { kind: "decoded", opened: await decoder.open(fetched.bytes) };
      } catch (error) {
        throw withWhere(error, chunkWhere(arr, plan, c.coords));
      }
    }
    try {
      return { kind: "zarrita", chunk: convert(await za.decode(fetched.bytes)) };
    } catch (error) {
      throw withCodecContext(error, "read", arrayName(arr.path, arr.store));
    }
  };
}
