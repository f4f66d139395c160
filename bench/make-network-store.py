#!/usr/bin/python3
"""The stores bench/network.mjs and bench/session.mjs serve over loopback
HTTP, written into a folder the bench removes afterwards:

    /usr/bin/python3 bench/make-network-store.py DIR [--quick]

The image of bench/make-compressed-chunks.py (4096 x 4096 uint16, 12-bit,
microscopy-like), zstd, as two Zarr v3 arrays of the group DIR/image.zarr:

- "sharded": 4 shards of 2048 x 2048, each holding 64 inner chunks of
  256 x 256;
- "chunked": the same image in 256 x 256 chunks, unsharded;
- "quarter": the image at 1/4 (1024 x 1024: every 4th row and column,
  the nearest-neighbour downsampling ome-zarr-py's Scaler makes by
  default), one shard of 16 inner chunks of 256 x 256: the overview
  level a viewer asks for beside level-0 tiles (bench/session.mjs). Its
  values are expected.u16's at [::4, ::4], so there is no file of them.

zarr-python 3 is not installable here (Debian has zarr 2.13.6), so the
layout is written from its source, zarr-python at commit
d44f9f92ab4f12a8008de2553a7c9988669e3910 (2026-08-22), as
scripts/make-bytes-fixtures.py does:

- src/zarr/codecs/sharding.py: the present inner chunks back to back in
  Morton order (morton_order_iter over the chunks per shard), then the
  index (index_location "end"): per inner chunk in C order, its offset and
  length as little-endian uint64 (2^64 - 1 twice for an absent one),
  encoded by the index codecs bytes (little) + crc32c, the checksum of the
  index bytes appended as a little-endian uint32;
- src/zarr/core/array.py: the default compressor zstd, written
  {"name": "zstd", "configuration": {"level": 0, "checksum": false}},
  and the default chunk key encoding ("default", separator "/");
- src/zarr/core/metadata/v3.py: the key order of zarr.json.

The inner chunks are numcodecs' Zstd(level=0) of the little-endian bytes
(what zarr-python 3's ZstdCodec calls). --quick: 1024 x 1024 in shards of
512 x 512 (inner 64 x 64): the same layout scaled down, 4 shards of 64
inner chunks, so the benchmark's tiles (a sixteenth of the side) are
inner chunks as in the full image (and "quarter" 256 x 256, one shard of
16 inner chunks of 64 x 64).
"""
import importlib.util
import json
import os
import struct
import sys

import numcodecs
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


chunks = load("chunks", os.path.join(HERE, "make-compressed-chunks.py"))
sys.dont_write_bytecode = True
crc32c = load("crc32c_reference", os.path.join(HERE, "..", "scripts", "crc32c_reference.py")).crc32c

ZSTD = numcodecs.Zstd(level=0)
INNER_CODECS = [
    {"name": "bytes", "configuration": {"endian": "little"}},
    {"name": "zstd", "configuration": {"level": 0, "checksum": False}},
]


def morton_order(grid):
    """zarr-python's morton_order_iter (decode_morton) for a 2-d grid of
    powers of two: the bits of the code dealt out in turn, the lowest to
    the row, the next to the column, and so on up."""
    bits = max(1, max(int(n - 1).bit_length() for n in grid))
    order = []
    for code in range(1 << (2 * bits)):
        coords = [0, 0]
        for b in range(bits):
            for d in range(2):
                coords[d] |= ((code >> (2 * b + d)) & 1) << b
        if coords[0] < grid[0] and coords[1] < grid[1]:
            order.append(tuple(coords))
    return order


def shard_blob(shard, inner):
    grid = (shard.shape[0] // inner, shard.shape[1] // inner)
    index = np.full((grid[0], grid[1], 2), 2**64 - 1, dtype="<u8")
    body = bytearray()
    for r, c in morton_order(grid):
        data = ZSTD.encode(np.ascontiguousarray(shard[r * inner:(r + 1) * inner, c * inner:(c + 1) * inner]).astype("<u2").tobytes())
        index[r, c] = (len(body), len(data))
        body += data
    index_bytes = index.tobytes()
    return bytes(body) + index_bytes + struct.pack("<I", crc32c(index_bytes))


def array_json(shape, chunk_shape, codecs):
    return {
        "shape": list(shape),
        "data_type": "uint16",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunk_shape)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": codecs,
        "attributes": {},
        "zarr_format": 3,
        "node_type": "array",
        "storage_transformers": [],
    }


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main(out, quick):
    side, shard, inner = (1024, 512, 64) if quick else (4096, 2048, 256)
    img = chunks.image()[:side, :side]
    root = os.path.join(out, "image.zarr")
    write(os.path.join(root, "zarr.json"), json.dumps({"attributes": {}, "zarr_format": 3, "node_type": "group"}).encode())

    sharding = [{"name": "sharding_indexed", "configuration": {
        "chunk_shape": [inner, inner],
        "codecs": INNER_CODECS,
        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
        "index_location": "end",
    }}]
    write(os.path.join(root, "sharded", "zarr.json"), json.dumps(array_json(img.shape, (shard, shard), sharding), indent=2).encode())
    for r in range(side // shard):
        for c in range(side // shard):
            blob = shard_blob(img[r * shard:(r + 1) * shard, c * shard:(c + 1) * shard], inner)
            write(os.path.join(root, "sharded", "c", str(r), str(c)), blob)

    # The 1/4 level: one shard, its inner chunks those of level 0.
    quarter = np.ascontiguousarray(img[::4, ::4])
    write(os.path.join(root, "quarter", "zarr.json"), json.dumps(array_json(quarter.shape, quarter.shape, sharding), indent=2).encode())
    write(os.path.join(root, "quarter", "c", "0", "0"), shard_blob(quarter, inner))

    write(os.path.join(root, "chunked", "zarr.json"), json.dumps(array_json(img.shape, (inner, inner), INNER_CODECS), indent=2).encode())
    for r in range(side // inner):
        for c in range(side // inner):
            data = ZSTD.encode(np.ascontiguousarray(img[r * inner:(r + 1) * inner, c * inner:(c + 1) * inner]).astype("<u2").tobytes())
            write(os.path.join(root, "chunked", "c", str(r), str(c)), data)
    # The values every reader must return, for the bench's check.
    write(os.path.join(out, "expected.u16"), img.astype("<u2").tobytes())


if __name__ == "__main__":
    main(sys.argv[1], "--quick" in sys.argv[2:])
