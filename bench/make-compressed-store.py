#!/usr/bin/python3
"""The store bench/compressed-reads.mjs reads end to end, written by
Debian's zarr-python 2 and numcodecs into a folder the bench removes
afterwards:

    /usr/bin/python3 bench/make-compressed-store.py DIR [--quick]

The image of bench/make-compressed-chunks.py (4096 x 4096 uint16, 12-bit,
microscopy-like with Poisson noise) in 512 x 512 chunks, stored three
ways, as the issue measures them: zstd level 3, blosc lz4 with byte
shuffle, gzip level 1 (Zarr v2 arrays "zstd", "blosc-lz4", "gzip" of the
group DIR/image.zarr). --quick: 1024 x 1024 in 256 x 256 chunks.
"""
import importlib.util
import os
import sys

import numcodecs
import zarr
from numcodecs import blosc

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("chunks", os.path.join(HERE, "make-compressed-chunks.py"))
chunks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chunks)

STORES = {
    "zstd": numcodecs.Zstd(level=3),
    "blosc-lz4": numcodecs.Blosc(cname="lz4", clevel=5, shuffle=blosc.SHUFFLE),
    "gzip": numcodecs.GZip(level=1),
}


def main(out, quick):
    img = chunks.image()
    side, chunk = (1024, 256) if quick else (4096, 512)
    img = img[:side, :side]
    root = zarr.open_group(os.path.join(out, "image.zarr"), mode="w")
    for name, codec in STORES.items():
        z = root.create_dataset(name, shape=img.shape, chunks=(chunk, chunk), dtype="<u2", compressor=codec, fill_value=0)
        z[...] = img


if __name__ == "__main__":
    main(sys.argv[1], "--quick" in sys.argv[2:])
