// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as the crc32c
// codec appends it to a shard's index: small inputs only (an index is 16
// bytes per inner chunk), so a byte-wise table is enough.
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
