"""crc32c (Castagnoli, reflected polynomial 0x82F63B78), bit by bit.

The checksum of the sharding index and of the crc32c codec, written from
its definition so that the fixture scripts do not depend on a crc32c
package (Debian's Python has none); imported by the scripts beside it.
"""


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF
