// The decoder of a chunk whose values read changes after its array ->
// bytes codec (value-steps.js): a chain with array -> array codecs, or a
// read with `dtype`. Two ways, chosen once per array:
//   in wasm: the chunk's bytes (decompressed there where the chain's
//            compressor is the package's own) run through a value program
//            and are placed, chunk by chunk, never leaving wasm memory;
//   in JS:   the bytes decompressed and decoded by the array -> bytes
//            codec, then by each array -> array codec, then cast, and the
//            chunk's values placed as they are.
import { BytesCodec } from "../../codecs/bytes.js";
import { PackBitsCodec } from "../../codecs/packbits.js";
import { viewAs } from "../../codecs/chunk.js";
import { numericType } from "../../array-to-array/numeric-types.js";
import { ZarrCodecError } from "../../errors.js";
import { wasm } from "../../wasm/load.js";
import { copyInPlace, valuesInPlace } from "../place/wasm-placement.js";
import { nextToken } from "./frame-tokens.js";
import { arrayToArrayCodecs, outputCast, valueProgram } from "./value-steps.js";

// Types whose little-endian bytes are their container's: viewed, not decoded.
const VIEWED = new Set(["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"]);

const product = (values) => values.reduce((a, b) => a * b, 1);
const bytesOfData = (data) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

/**
 * @param {object} parts
 * @param {import("../plan/codec-chain.js").Chain} parts.chain
 * @param {{dataType: string, chunkShape: number[], elementBytes: number, fillValue: unknown, outputType?: string}} parts.array
 * @param {{name: string, codec: object}[]} parts.compressors
 * @param {(bytes: Uint8Array) => Promise<Uint8Array>} parts.decompress  the bytes -> bytes codecs in JS
 * @param {{kind: number, open: Function, reopen: Function} | undefined} parts.inWasm  where the
 *   chain's compressor runs in wasm (chunk-decoder.js)
 * @returns {import("./chunk-decoder.js").ChunkDecoder | {unsupported: string}}
 */
export function valuesDecoder({ chain, array, compressors, decompress, inWasm }) {
  const { name, configuration } = chain.arrayToBytes;
  if (name !== "bytes" && name !== "endian" && name !== "packbits") return { unsupported: `array -> array codecs or dtype with the ${name} codec` };
  const { codecs, encodedType } = arrayToArrayCodecs(chain, array);
  const valuesType = array.dataType;
  const cast = outputCast(valuesType, array.outputType);
  const outputType = array.outputType ?? valuesType;
  const output = numericType(outputType);
  const elements = product(array.chunkShape);
  if (output && output.container().BYTES_PER_ELEMENT !== array.elementBytes) {
    return { unsupported: `read's ${outputType} values are ${output.container().BYTES_PER_ELEMENT}-byte elements where the output holds ${array.elementBytes}` };
  }
  // The stored shape (axes in storage order): what the codecs are told.
  const storedShape = chain.order ? chain.order.map((axis) => array.chunkShape[axis]) : array.chunkShape;
  const program = valueProgram(codecs, cast);
  const encodedBytes = numericType(program?.input)?.bits / 8;
  const little = name !== "packbits" && configuration?.endian !== "big";
  if (program && program.output === outputType && little && program.input === encodedType && Number.isInteger(encodedBytes)) {
    const decodedLength = elements * encodedBytes;
    const { words } = program;
    // Where the compressor is not one wasm runs, JS decompresses and wasm
    // runs the program on the bytes as they are.
    const open = inWasm ? inWasm.open : async (bytes) => ({ bytes: await decompress(bytes), token: nextToken() });
    return {
      kind: "values",
      inWasm: true,
      bytesCodecs: compressors,
      open,
      reopen: inWasm?.reopen,
      place: (frame, desc, band, where) => {
        const compressed = inWasm && !frame.decoded;
        valuesInPlace(wasm(), compressed ? inWasm.kind : -1, frame.decoded ?? frame.bytes, decodedLength, frame.token, words, desc, band, where);
      },
    };
  }
  // In JS: the array -> bytes codec as zarrita's pipeline runs it, then the
  // codecs, then the cast.
  const meta = { dataType: encodedType, shape: storedShape };
  const arrayToBytes = VIEWED.has(encodedType) && little ? undefined : name === "packbits" ? new PackBitsCodec(configuration, meta) : new BytesCodec(configuration, meta);
  const Container = numericType(encodedType)?.container();
  const stride = storedShape.map((_, i) => product(storedShape.slice(i + 1)));
  const decodeChunk = (bytes) => {
    let chunk;
    if (arrayToBytes) chunk = arrayToBytes.decode(bytes);
    else {
      if (bytes.byteLength !== elements * Container.BYTES_PER_ELEMENT) {
        throw new ZarrCodecError("INVALID_INPUT", `read: the chunk decodes to ${bytes.byteLength} bytes, expected ${elements * Container.BYTES_PER_ELEMENT} (${elements} ${encodedType} values)`);
      }
      chunk = { data: viewAs(Container, bytes), shape: storedShape, stride };
    }
    for (let i = codecs.length - 1; i >= 0; i--) chunk = codecs[i].decode(chunk);
    const data = cast ? cast.cast(chunk.data) : chunk.data;
    return bytesOfData(data);
  };
  return {
    kind: "values",
    bytesCodecs: compressors,
    open: async (stored) => decodeChunk(await decompress(stored)),
    place: (bytes, desc, band, where) => copyInPlace(wasm(), bytes, desc, band, where),
  };
}
