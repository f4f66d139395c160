// numcodecs' Shuffle where a Zarr v2 filter list has it before another
// filter (`[shuffle, delta]`): numcodecs encodes the filters in list order,
// so decoding runs the delta first and the shuffle after it, on the
// delta's output. Shuffle is then an array -> array step: the chunk's
// elements, as the bytes they lie in, regrouped back (codecs/shuffle.js),
// the same type and count. (At the end of the list it is the bytes ->
// bytes codec it usually is.)
import { ShuffleCodec } from "../codecs/shuffle.js";
import { chunkWith } from "./filter-chunk.js";

export class ShuffleFilterCodec {
  kind = "array_to_array";
  #bytes;

  constructor(configuration) {
    this.#bytes = new ShuffleCodec(configuration);
  }

  static fromConfig(configuration) {
    return new ShuffleFilterCodec(configuration);
  }

  #regroup(chunk, direction) {
    const data = chunk.data;
    const bytes = this.#bytes[direction](new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    return chunkWith(chunk, new data.constructor(bytes.buffer, bytes.byteOffset, data.length));
  }

  decode(chunk) {
    return this.#regroup(chunk, "decode");
  }

  encode(chunk) {
    return this.#regroup(chunk, "encode");
  }
}
