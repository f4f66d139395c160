#!/usr/bin/python3
"""Writes Zarr v2 arrays with blosc of every cname numcodecs writes
(blosclz, lz4, lz4hc, snappy, zlib, zstd), for
tests/js/zarrita/blosc-cnames.test.js, which runs it into a temporary
folder (nothing is committed):

    /usr/bin/python3 scripts/write-blosc-cname-stores.py OUT_DIR

Written by Debian's zarr-python 2 (2.13.6) and numcodecs (0.11), whose
c-blosc is built without snappy: numcodecs then stores snappy's chunks
memcpyed (uncompressed, the header's flags say so) while the .zarray still
says cname "snappy". Arrays of shape (20, 30) in chunks of (12, 24), so
three of the four chunks are partial edge chunks:
  blosc_<cname>_u2   uint16, byte shuffle
  blosc_<cname>_f8   float64, bit shuffle
  zstd_u2            numcodecs' Zstd (level 3), for frames the test
                     rewrites as ones that need a dictionary
and OUT_DIR/cnames.n5, by zarr-python 2's N5Store: blosc_snappy_u2, the
same values as the v2 array of that name (N5 lists the axes reversed).
OUT_DIR/expected.json holds, per array, numpy's values (little-endian
bytes, hex) and the flags byte of each chunk's blosc header (byte 2).
"""
import json
import os
import sys
import warnings

import numcodecs
import numpy as np
import zarr

CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"]
SHAPE = (20, 30)
CHUNKS = (12, 24)


def values(dtype, seed):
    rng = np.random.default_rng(seed)
    rows, cols = np.indices(SHAPE)
    smooth = 600 + 400 * np.sin(cols / 7) * np.cos(rows / 5) + 3 * cols
    noisy = smooth + rng.integers(0, 16, SHAPE)
    return (noisy / 7).astype(dtype) if dtype == "<f8" else noisy.astype(dtype)


def main(out):
    store = zarr.DirectoryStore(os.path.join(out, "cnames.zarr"))
    root = zarr.group(store=store, overwrite=True)
    expected = {}
    seed = 1
    for cname in CNAMES:
        for suffix, dtype, shuffle in (("u2", "<u2", numcodecs.Blosc.SHUFFLE), ("f8", "<f8", numcodecs.Blosc.BITSHUFFLE)):
            name = f"blosc_{cname}_{suffix}"
            data = values(dtype, seed)
            seed += 1
            compressor = numcodecs.Blosc(cname=cname, clevel=5, shuffle=shuffle)
            z = root.create_dataset(name, shape=SHAPE, chunks=CHUNKS, dtype=dtype, compressor=compressor, fill_value=0)
            z[...] = data
            flags = {}
            for key in sorted(os.listdir(os.path.join(out, "cnames.zarr", name))):
                if not key.startswith("."):
                    with open(os.path.join(out, "cnames.zarr", name, key), "rb") as f:
                        flags[key] = f.read()[2]
            expected[name] = {"hex": data.astype(dtype).tobytes().hex(), "flags": flags}
    # N5Store warns that not every N5 library reads blosc.
    warnings.simplefilter("ignore", RuntimeWarning)
    n5 = zarr.group(store=zarr.N5Store(os.path.join(out, "cnames.n5")), overwrite=True)
    z = n5.create_dataset("blosc_snappy_u2", shape=SHAPE, chunks=CHUNKS, dtype="<u2",
                          compressor=numcodecs.Blosc(cname="snappy", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE), fill_value=0)
    z[...] = np.frombuffer(bytes.fromhex(expected["blosc_snappy_u2"]["hex"]), "<u2").reshape(SHAPE)
    data = values("<u2", seed)
    z = root.create_dataset("zstd_u2", shape=SHAPE, chunks=CHUNKS, dtype="<u2", compressor=numcodecs.Zstd(level=3), fill_value=0)
    z[...] = data
    expected["zstd_u2"] = {"hex": data.tobytes().hex(), "flags": {}}
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
