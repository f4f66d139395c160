// What the page and its worker do with the package: decode the chunks the
// test sends (packbits and big-endian bytes) and return each chunk's bytes
// as hex, which the test compares with references computed in Node.
const hex = (data) =>
  Array.from(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), (b) => b.toString(16).padStart(2, "0")).join("");

/** `classes`: { BytesCodec, PackBitsCodec } of either entry, after ready(). */
export function decodeCases({ BytesCodec, PackBitsCodec }, cases) {
  return cases.map(({ codec, configuration, dataType, shape, encoded }) => {
    const Codec = codec === "packbits" ? PackBitsCodec : BytesCodec;
    const chunk = Codec.fromConfig(configuration, { dataType, shape }).decode(new Uint8Array(encoded));
    return hex(chunk.data);
  });
}
