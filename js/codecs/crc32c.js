// The crc32c codec and its checksum, CRC-32C (Castagnoli, reflected
// polynomial 0x82F63B78), as it follows a shard's index or a chunk: a
// byte-wise table (an index is 16 bytes per inner chunk; a chunk's
// checksum costs about what copying it once does).
import { bytesOf } from "./chunk.js";
import { ZarrCodecError } from "../errors.js";

const TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c >>> 0;
}

/** The CRC-32C of `bytes` (an unsigned 32-bit number). */
export function crc32c(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The crc32c codec (bytes -> bytes): 4 bytes of CRC-32C, little-endian,
 * after the bytes. Decoding checks them (CHECKSUM_MISMATCH), where
 * zarrita's own codec drops them unread.
 */
export class Crc32cCodec {
  kind = "bytes_to_bytes";

  static fromConfig() {
    return new Crc32cCodec();
  }

  /** @param {Uint8Array} input */
  decode(input) {
    const bytes = bytesOf("crc32c", "decode input", input);
    if (bytes.byteLength < 4) {
      throw new ZarrCodecError("LENGTH_MISMATCH", `crc32c: the bytes end in a 4-byte checksum, got ${bytes.byteLength} bytes`);
    }
    const body = bytes.subarray(0, bytes.byteLength - 4);
    const stored = new DataView(bytes.buffer, bytes.byteOffset + body.byteLength, 4).getUint32(0, true);
    const computed = crc32c(body);
    if (stored !== computed) {
      throw new ZarrCodecError(
        "CHECKSUM_MISMATCH",
        `crc32c: the checksum is 0x${stored.toString(16).padStart(8, "0")}, the bytes give 0x${computed.toString(16).padStart(8, "0")}`,
      );
    }
    return body;
  }

  /** @param {Uint8Array} input */
  encode(input) {
    const bytes = bytesOf("crc32c", "encode input", input);
    const out = new Uint8Array(bytes.byteLength + 4);
    out.set(bytes);
    new DataView(out.buffer).setUint32(bytes.byteLength, crc32c(bytes), true);
    return out;
  }

  computeEncodedSize(size) {
    return size + 4;
  }
}
