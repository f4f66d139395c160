#!/usr/bin/python3
"""Reads arrays this package wrote (zarr.set through zarrita, compressed by
the package's encoder module) with independent readers, for
tests/js/zarrita/compressed-writes.test.js:

    /usr/bin/python3 scripts/compressed-read-back.py <root> <v2|v3|n5> <array path>...

Run with Debian's python3 (python3-zarr 2.13.6, python3-numcodecs 0.11.0).
Prints one JSON object on stdout, per array path:

    {"<path>": {"shape": [...], "le_hex": "..."} | {"error": "<exception>"}}

"le_hex" holds the values in C order, little-endian, as hex.

- v2: zarr-python 2 (zarr.open_array), so numcodecs' Zstd, GZip, Zlib, LZ4
  and Blosc decode every chunk.
- n5: zarr-python 2's N5Store; shape and values in its (numpy) axis order.
- v3: zarr-python 2 cannot read Zarr v3, so the array is read here from
  the v3 spec, with numcodecs decoding each chunk: zarr.json's shape,
  data_type (uint8..float64), regular chunk grid, default chunk keys with
  "/", fill_value, and codecs [bytes (endian), then zstd, gzip, blosc,
  numcodecs.zlib, numcodecs.lz4 and crc32c (checked)]; a missing chunk
  reads as the fill value.
"""
import json
import pathlib
import struct
import sys

import numpy as np
from numcodecs import LZ4, Blosc, GZip, Zlib, Zstd

# No __pycache__ left in scripts/ by the import beside this script.
sys.dont_write_bytecode = True
from crc32c_reference import crc32c  # noqa: E402




DECODERS = {"zstd": Zstd(), "gzip": GZip(), "blosc": Blosc(), "numcodecs.zlib": Zlib(), "numcodecs.lz4": LZ4()}
TYPES = {"uint8": "u1", "int8": "i1", "uint16": "u2", "int16": "i2", "uint32": "u4", "int32": "i4",
         "float32": "f4", "float64": "f8"}


def read_v3(root, path):
    array_dir = pathlib.Path(root) / path.strip("/")
    doc = json.loads((array_dir / "zarr.json").read_text())
    shape = doc["shape"]
    chunks = doc["chunk_grid"]["configuration"]["chunk_shape"]
    codecs = doc["codecs"]
    if codecs[0]["name"] != "bytes":
        raise ValueError("the first codec is %s, not bytes" % codecs[0]["name"])
    endian = codecs[0].get("configuration", {}).get("endian", "little")
    stored = np.dtype(TYPES[doc["data_type"]]).newbyteorder("<" if endian == "little" else ">")
    out = np.full(shape, doc["fill_value"], dtype=stored.newbyteorder("<"))
    grid = [-(-s // c) for s, c in zip(shape, chunks)]
    for coords in np.ndindex(*grid):
        f = array_dir / "c" / "/".join(map(str, coords))
        if not f.exists():
            continue
        raw = f.read_bytes()
        for codec in reversed(codecs[1:]):
            name = codec["name"]
            if name == "crc32c":
                if struct.unpack("<I", raw[-4:])[0] != crc32c(raw[:-4]):
                    raise ValueError("crc32c mismatch in chunk %s" % (coords,))
                raw = raw[:-4]
            else:
                raw = bytes(DECODERS[name].decode(raw))
        chunk = np.frombuffer(raw, dtype=stored).reshape(chunks)
        region = tuple(slice(c * k, min((c + 1) * k, s)) for c, k, s in zip(coords, chunks, shape))
        out[region] = chunk[tuple(slice(0, r.stop - r.start) for r in region)]
    return out


def read_back(root, fmt, path):
    if fmt == "v3":
        return read_v3(root, path)
    import zarr
    if fmt == "n5":
        from zarr.n5 import N5Store
        return zarr.open_array(store=N5Store(root), path=path.strip("/"), mode="r")[...]
    return zarr.open_array(str(pathlib.Path(root) / path.strip("/")), mode="r")[...]


def main(argv):
    if len(argv) < 4 or argv[2] not in ("v2", "v3", "n5"):
        print("usage: compressed-read-back.py <root> <v2|v3|n5> <array path>...", file=sys.stderr)
        return 2
    result = {}
    for path in argv[3:]:
        try:
            values = read_back(argv[1], argv[2], path)
            result[path] = {"shape": list(values.shape),
                            "le_hex": values.astype(values.dtype.newbyteorder("<")).tobytes(order="C").hex()}
        except Exception as e:  # noqa: BLE001 -- every failure is that array's answer
            result[path] = {"error": "%s: %s" % (type(e).__name__, e)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
