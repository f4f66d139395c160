// "packbits" on a bool array through zarrita 0.5 or 0.6, with an empty
// configuration: numcodecs' v2 PackBits filter or a v3 packbits codec, as
// zarrita 0.5 and 0.6 name both the same (zarrita/meta.js). The two frames
// differ in length by the padding-count byte PackBits puts first, so each
// chunk says which it is: decoding is exact for both. Writing could pick
// the wrong layout, so it is refused with a way out.
import { NumcodecsPackBitsCodec } from "../codecs/numcodecs-packbits.js";
import { PackBitsCodec } from "../codecs/packbits.js";
import { ZarrCodecError } from "../errors.js";
import { bytesOf } from "../codecs/chunk.js";

export class AmbiguousBoolPackBits {
  kind = "array_to_bytes";
  #v3;
  #v2;

  constructor(meta, adapter) {
    this.#v3 = new PackBitsCodec({}, meta, adapter);
    this.#v2 = new NumcodecsPackBitsCodec(undefined, meta, adapter);
  }

  decode(input) {
    const bytes = bytesOf("packbits", "decode input", input);
    const v2Length = this.#v2.getEncodedMeta({}).shape[0];
    if (bytes.byteLength === v2Length) return this.#v2.decode({ data: bytes });
    return this.#v3.decode(bytes);
  }

  encode() {
    throw new ZarrCodecError(
      "INVALID_CONFIGURATION",
      "packbits: zarrita 0.5 and 0.6 give numcodecs' v2 PackBits filter and the " +
        'v3 packbits codec the same name ("packbits"), and this bool array\'s ' +
        "configuration ({}) fits both, so writing is refused rather than risk " +
        "the wrong layout; write with zarrita >= 0.7, or give a v3 array's " +
        'packbits codec an explicit configuration such as {"padding_encoding": "none"}',
    );
  }

  computeEncodedSize(decodedByteLength) {
    return this.#v3.computeEncodedSize(decodedByteLength);
  }
}
