#!/usr/bin/python3
"""Writes tests/fixtures/n5-store.n5: an N5 container, as zarr-python 2's
N5FSStore writes it, plus a few blocks and attributes files rewritten the
way Java N5 (or other N5 writers) would have written them.

Run with Debian's python3 after `apt-get install python3-zarr
python3-numcodecs` (zarr 2.13.6, numpy 1.24.2, numcodecs 0.11.0, fsspec
2022.11.0 when these were made):

    /usr/bin/python3 scripts/make-n5-fixtures.py

The store is committed; this script is how it was made, not a test step.
Running it twice gives byte-identical files: the RNG is seeded, and the
mtime that Python's gzip module stamps into every gzip member header
(numcodecs.GZip leaves it at the current time) is zeroed afterwards, as
Java's GZIPOutputStream writes it. Blosc, zlib, zstd, bzip2 and xz output is
deterministic for a given input.

Axis order: zarr-python 2 shows N5 arrays with the axes reversed relative to
attributes.json "dimensions" (numpy's order), as withN5 does by default
(axes "reversed"): "numpy_le_hex" holds z[...] as zarr-python reads it.
withN5's axes "n5" follows attributes.json: shape = dimensions and element
(i0..in-1) is zarr-python's element (in-1..i0), i.e. np.transpose(z[...]):
"le_hex". Block files are at <array>/<g0>/<g1>/... with the grid position
in N5 (attributes) order.

Layout (all "types/*" raw, 2-D (5,7) blocks (2,3) in zarr-python's view,
i.e. dimensions [7,5] blockSize [3,2]; int16 and float32 3-D (3,4,5) blocks
(2,3,2), i.e. dimensions [5,4,3]; extremes at both ends of each array):
  types/<uint8..float64>          one array per N5 data type
  volumes/raw/<raw|gzip|zlib|blosc|zstd>
                                  uint16 compression variants; zlib is
                                  written by zarr-python as "gzip" with
                                  "useZlib": true
  volumes/raw/zstd                as N5FSStore writes numcodecs.Zstd: the
                                  compression object keeps a stray "id"
                                  ({"id": "zstd", "level": 3, "type": "zstd"})
  volumes/raw/zstd_n5             the same blocks (copied), attributes.json
                                  written by hand with {"type": "zstd",
                                  "level": 3} as n5-zstandard would
  volumes/truncated/*             every boundary block rewritten truncated,
                                  the way Java N5 writes them: header dims =
                                  the part of the block inside the array,
                                  payload = only those elements (F order in
                                  N5 dims), recompressed with the same codec;
                                  *_mixed: only some boundary blocks
                                  truncated, the rest left padded as
                                  zarr-python wrote them
  labels/segmentation/cells       uint32 below an implicit group:
                                  labels/segmentation has no attributes.json
                                  (zarr-python writes {"n5": "2.0.0"} into
                                  every intermediate group; it was deleted);
                                  one block deleted (reads as 0)
  refused/bzip2, refused/xz       written by zarr-python (numcodecs BZ2,
                                  LZMA default -> "xz")
  refused/lz4, refused/jpeg       attributes.json only, written by hand

expected.json (json.dumps indent=1):
  "<array path>": {"dimensions", "blockSize", "dataType", "compression"
      (all as in attributes.json), "le_hex": hex of
      np.ascontiguousarray(np.transpose(z[...])) in little-endian,
      "numpy_shape": z.shape, "numpy_le_hex": hex of z[...] (C order) in
      little-endian,
      "truncated_blocks": block files rewritten truncated (paths relative to
      the array, N5 order, e.g. "2/1"), "missing_blocks": block files
      deleted (absent blocks read as 0)}
  refused arrays: the four attributes and "refused": true
  "_groups": every group path ("" is the root), implicit ones included
  "_implicit_groups": the groups that have no attributes.json
"""
import json
import pathlib
import shutil
import struct
import warnings

import numcodecs
import numpy as np
import zarr
from zarr.n5 import N5FSStore

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"
NAME = "n5-store.n5"

SHAPE_2D, CHUNKS_2D = (5, 7), (2, 3)
SHAPE_3D, CHUNKS_3D = (3, 4, 5), (2, 3, 2)

EXTREMES = {
    "uint8": [0, 255, 1, 128],
    "int8": [-128, 127, -1, 0],
    "uint16": [0, 65535, 0x8000, 0x1234],
    "int16": [-32768, 32767, -1, 0],
    "uint32": [0, 2**32 - 1, 2**31, 0xDEADBEEF],
    "int32": [-(2**31), 2**31 - 1, -1, 0x01020304],
    "uint64": [0, 2**64 - 1, 2**63, 0x0123456789ABCDEF],
    "int64": [-(2**63), 2**63 - 1, -1, 0x0102030405060708],
    # bit patterns: NaN with payload, -0.0, inf, -inf, smallest subnormal,
    # largest finite, signalling NaN with payload, -NaN
    "float32": [0x7FC00001, 0x80000000, 0x7F800000, 0xFF800000, 0x00000001,
                0x7F7FFFFF, 0x7FA00BAD, 0xFFC00000],
    "float64": [0x7FF8DEADBEEF0001, 0x8000000000000000, 0x7FF0000000000000,
                0xFFF0000000000000, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF,
                0x7FF4000000000BAD, 0xFFF8000000000000],
}


def values_for(dtype, shape, rng):
    """Seeded values with the dtype's extremes at both ends (C order)."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    if dtype.kind == "f":
        v = (rng.normal(size=n) * 1000).astype(dtype)
        ext = np.array(EXTREMES[dtype.name], dtype="u%d" % dtype.itemsize).view(dtype)
    else:
        info = np.iinfo(dtype)
        v = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        ext = np.array(EXTREMES[dtype.name], dtype=dtype)
    k = len(ext)
    v[:k] = ext
    v[-k:] = ext[::-1]
    return v.reshape(shape)


def n5_attrs(path):
    return json.loads((path / "attributes.json").read_text())


def block_files(array_dir):
    """Block file paths relative to the array directory, N5 order."""
    return sorted(str(p.relative_to(array_dir)) for p in array_dir.rglob("*")
                  if p.is_file() and p.name != "attributes.json")


def codec_for(compression):
    kind = compression["type"]
    if kind == "raw":
        return None
    if kind == "gzip":
        if compression.get("useZlib"):
            return numcodecs.Zlib(level=compression["level"])
        return numcodecs.GZip(level=compression["level"])
    raise ValueError(kind)


def zero_gzip_mtime(array_dir):
    """Python's gzip stamps the current time into each member header; Java's
    GZIPOutputStream writes 0. Zero it so the fixtures are reproducible."""
    attrs = n5_attrs(array_dir)
    c = attrs["compression"]
    if c["type"] != "gzip" or c.get("useZlib"):
        return
    for key in block_files(array_dir):
        f = array_dir / key
        data = bytearray(f.read_bytes())
        ndim = struct.unpack(">H", data[2:4])[0]
        h = 4 + 4 * ndim
        assert data[h:h + 3] == b"\x1f\x8b\x08", key
        data[h + 4:h + 8] = b"\0\0\0\0"
        f.write_bytes(bytes(data))


def boundary_blocks(attrs):
    """Block keys (N5 order) that reach past the end of the array."""
    dims, bs = attrs["dimensions"], attrs["blockSize"]
    grid = [-(-d // b) for d, b in zip(dims, bs)]
    keys = []
    for pos in np.ndindex(*grid):
        if any((p + 1) * b > d for p, b, d in zip(pos, bs, dims)):
            keys.append("/".join(map(str, pos)))
    return keys


def truncate_block(array_dir, key):
    """Rewrite one padded block as Java N5 writes a boundary block."""
    attrs = n5_attrs(array_dir)
    dims, bs = attrs["dimensions"], attrs["blockSize"]
    be = np.dtype(attrs["dataType"]).newbyteorder(">")
    codec = codec_for(attrs["compression"])
    f = array_dir / key
    data = f.read_bytes()
    mode, ndim = struct.unpack(">HH", data[:4])
    header_dims = list(struct.unpack(">%dI" % ndim, data[4:4 + 4 * ndim]))
    assert mode == 0 and header_dims == bs, (key, header_dims)
    payload = data[4 + 4 * ndim:]
    if codec is not None:
        payload = codec.decode(payload)
    block = np.frombuffer(payload, dtype=be).reshape(header_dims, order="F")
    pos = [int(p) for p in key.split("/")]
    clipped = [min(b, d - p * b) for p, b, d in zip(pos, bs, dims)]
    part = block[tuple(slice(0, c) for c in clipped)]
    payload = part.tobytes(order="F")
    if codec is not None:
        payload = bytes(codec.encode(payload))
    f.write_bytes(struct.pack(">HH", 0, ndim)
                  + struct.pack(">%dI" % ndim, *clipped) + payload)


def write_n5(name):
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    store = N5FSStore(str(path))
    root = zarr.open_group(store=store, mode="w")
    root.attrs["description"] = "zarr-codecs-wasm N5 fixtures"
    rng = np.random.default_rng(5150)
    written = {}       # array path -> values written, zarr-python's view
    truncated = {}     # array path -> truncated block keys
    missing = {}       # array path -> deleted block keys
    refused = []

    def array(key, dtype, shape, chunks, compressor, values=None):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # blosc "not all N5 ..."
            z = root.create_dataset(key, shape=shape, chunks=chunks, dtype=dtype,
                                    compressor=compressor)
        if values is None:
            values = values_for(dtype, shape, rng)
        z[...] = values
        written[key] = values
        return z

    for dtype in ["uint8", "int8", "uint16", "int16", "uint32", "int32",
                  "uint64", "int64", "float32", "float64"]:
        three = dtype in ("int16", "float32")
        z = array("types/" + dtype, dtype,
                  SHAPE_3D if three else SHAPE_2D,
                  CHUNKS_3D if three else CHUNKS_2D, None)
    root["types"].attrs["note"] = "one raw array per N5 data type"

    compressors = {
        "raw": None,
        "gzip": numcodecs.GZip(level=5),
        "zlib": numcodecs.Zlib(level=5),
        "blosc": numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE),
        "zstd": numcodecs.Zstd(level=3),
    }
    for kind, compressor in compressors.items():
        z = array("volumes/raw/" + kind, "uint16", SHAPE_2D, CHUNKS_2D, compressor)
    z.attrs["resolution"] = [4.0, 4.0]   # user attributes beside N5 keys
    z.attrs["unit"] = "nm"
    # the zstd blocks again, attributes.json as n5-zstandard writes it
    zstd_dir = path / "volumes/raw/zstd"
    clean_dir = path / "volumes/raw/zstd_n5"
    shutil.copytree(zstd_dir, clean_dir)
    attrs = n5_attrs(zstd_dir)
    write_attrs(clean_dir, {"dimensions": attrs["dimensions"],
                            "blockSize": attrs["blockSize"],
                            "dataType": attrs["dataType"],
                            "compression": {"type": "zstd", "level": 3}})
    written["volumes/raw/zstd_n5"] = written["volumes/raw/zstd"]

    trunc = {
        # key: (dtype, 3-D?, compressor, which boundary blocks: all or a slice)
        "raw_2d": ("int32", False, None, None),
        "raw_3d": ("float64", True, None, None),
        "gzip_2d": ("uint16", False, numcodecs.GZip(level=5), None),
        "gzip_3d": ("int16", True, numcodecs.GZip(level=5), None),
        "gzip_mixed": ("uint64", False, numcodecs.GZip(level=5), slice(0, None, 2)),
        "raw_mixed": ("float32", True, None, slice(1, None, 2)),
    }
    for key, (dtype, three, compressor, _) in trunc.items():
        array("volumes/truncated/" + key, dtype, SHAPE_3D if three else SHAPE_2D,
              CHUNKS_3D if three else CHUNKS_2D, compressor)

    z = array("labels/segmentation/cells", "uint32", SHAPE_2D, CHUNKS_2D,
              numcodecs.GZip(level=5))
    root["labels"].attrs["note"] = "labels/segmentation is an implicit group"
    (path / "labels/segmentation/attributes.json").unlink()
    (path / "labels/segmentation/cells/1/1").unlink()   # grid (1,1), N5 order
    missing["labels/segmentation/cells"] = ["1/1"]

    for kind, compressor in [("bzip2", numcodecs.BZ2(level=9)),
                             ("xz", numcodecs.LZMA())]:
        array("refused/" + kind, "uint16", SHAPE_2D, CHUNKS_2D, compressor)
        refused.append("refused/" + kind)
    for kind, compression in [("lz4", {"type": "lz4", "blockSize": 65536}),
                              ("jpeg", {"type": "jpeg"})]:
        (path / "refused" / kind).mkdir(parents=True)
        write_attrs(path / "refused" / kind, {
            "dimensions": [7, 5], "blockSize": [3, 2], "dataType": "uint8",
            "compression": compression})
        refused.append("refused/" + kind)

    # After every block is written: zero gzip mtimes, then truncate.
    arrays = sorted(set(written) | set(refused))
    for key in arrays:
        if (path / key / "attributes.json").exists() and list(block_files(path / key)):
            zero_gzip_mtime(path / key)
    for key, (_, _, _, which) in trunc.items():
        key = "volumes/truncated/" + key
        blocks = boundary_blocks(n5_attrs(path / key))
        if which is not None:
            blocks = blocks[which]
        for b in blocks:
            truncate_block(path / key, b)
        zero_gzip_mtime(path / key)
        truncated[key] = blocks
    assert any(len(truncated[k]) < len(boundary_blocks(n5_attrs(path / k)))
               for k in truncated)

    # Read everything back with zarr-python.
    store = N5FSStore(str(path))
    expected = {}
    for key in arrays:
        attrs = n5_attrs(path / key)
        entry = {k: attrs[k] for k in ["dimensions", "blockSize", "dataType", "compression"]}
        if key in refused:
            entry["refused"] = True
            expected[key] = entry
            continue
        z = zarr.open_array(store=store, path=key, mode="r")
        values = z[...]
        want = written[key].copy()
        for b in missing.get(key, []):
            pos = [int(p) for p in b.split("/")][::-1]   # zarr-python order
            want[tuple(slice(p * c, (p + 1) * c) for p, c in zip(pos, z.chunks))] = 0
        assert values.dtype == want.dtype and values.tobytes() == want.tobytes(), key
        ours = np.ascontiguousarray(np.transpose(values))
        assert list(ours.shape) == attrs["dimensions"], key
        entry["le_hex"] = ours.astype(ours.dtype.newbyteorder("<")).tobytes().hex()
        entry["numpy_shape"] = list(values.shape)
        entry["numpy_le_hex"] = values.astype(values.dtype.newbyteorder("<")).tobytes().hex()
        entry["truncated_blocks"] = truncated.get(key, [])
        if key in missing:
            entry["missing_blocks"] = missing[key]
        expected[key] = entry

    groups = sorted({""} | {"/".join(k.split("/")[:i]) for k in arrays
                            for i in range(1, k.count("/") + 1)})
    implicit = [g for g in groups if not (path / g / "attributes.json").exists()]
    assert implicit == ["labels/segmentation"], implicit
    expected["_groups"] = groups
    expected["_implicit_groups"] = implicit
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def write_attrs(array_dir, attrs):
    (array_dir / "attributes.json").write_text(json.dumps(attrs, indent=4, sort_keys=True))


if __name__ == "__main__":
    write_n5(NAME)
    print("zarr", zarr.__version__, "wrote", HERE / NAME)
