#!/usr/bin/python3
"""Writes the OME-Zarr stores that the real OME-Zarr libraries from npm
(ome-zarr.js, @fideus-labs/ngff-zarr) open in
tests/js/zarrita/libraries-own-zarrita.test.js.

Run with Debian's python3 (python3-zarr 2.13.6, python3-numcodecs 0.11.0,
numpy 1.24):

    /usr/bin/python3 scripts/make-ome-zarr-stores.py

The stores are committed; this script is how they were made, not a test
step. Running it twice gives byte-identical stores.

Each store holds two images (OME-Zarr image groups), each a multiscale of
two levels: "0" of shape (100, 90) and "1" of shape (50, 45), uint16, with
axes y and x (scales 1 and 2). Every value follows one formula, which the
test computes again on its own:

    value(image, level, y, x) = (613 y + 97 x + (y x mod 5) + 40000 level + seed) mod 65536,
    then ANDed with 0x0FFF for the 12-bit "packbits" image
    (seed: 0 for "zstd", 12345 for "delta", 777 for "packbits")

tests/fixtures/ome-zarr-0.4.zarr, OME-Zarr 0.4 on Zarr v2, written by
zarr-python 2 (dimension separator "/", as OME-Zarr 0.4 requires), chunks
(32, 32):
  zstd    numcodecs Zstd(level=1): zarrita reads it with no help
  delta   filters [Delta("<u2")], Zstd(level=1): zarrita 0.5 and 0.6 know
          no "delta" (0.7 does); register() brings one

tests/fixtures/ome-zarr-0.5.zarr, OME-Zarr 0.5 on Zarr v3 as zarr-python 3
writes it (documents written literally, as in make-compressed-stores.py:
zarr-python 3 is not installable here), shards of (64, 64) holding inner
chunks of (32, 32), the index at the end (bytes little-endian + crc32c),
inner chunks wholly outside the array not stored:
  zstd      inner [bytes little, zstd level 0]: zarrita reads it with no help
  packbits  inner [packbits last_bit 11, zstd level 0] (12-bit values, the
            packbits page of zarr-extensions): no zarrita knows packbits;
            register() brings it
"""
import json
import pathlib
import shutil
import struct
import sys

import numpy as np
import zarr
from numcodecs import Delta, Zstd

# No __pycache__ left in scripts/ by the import beside this script.
sys.dont_write_bytecode = True
from crc32c_reference import crc32c  # noqa: E402
from packbits_reference import packbits  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"
LEVELS = [(100, 90), (50, 45)]
CHUNK = (32, 32)
SHARD = (64, 64)
SEEDS = {"zstd": 0, "delta": 12345, "packbits": 777}
MAX_U64 = 2**64 - 1
AXES = [{"name": "y", "type": "space", "unit": "micrometer"}, {"name": "x", "type": "space", "unit": "micrometer"}]


def values(image, level):
    y, x = np.indices(LEVELS[level], dtype=np.int64)
    v = (613 * y + 97 * x + (y * x) % 5 + 40000 * level + SEEDS[image]) % 65536
    if image == "packbits":
        v &= 0x0FFF
    return v.astype("<u2")


def multiscale(name, version):
    datasets = [{"path": str(level), "coordinateTransformations": [{"type": "scale", "scale": [2.0**level, 2.0**level]}]}
                for level in range(len(LEVELS))]
    entry = {"name": name, "axes": AXES, "datasets": datasets}
    if version == "0.4":
        entry = {"version": "0.4", **entry}
    return [entry]


# ---- OME-Zarr 0.4: Zarr v2 by zarr-python 2 -------------------------------------------


def write_04():
    path = HERE / "ome-zarr-0.4.zarr"
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(zarr.DirectoryStore(str(path), dimension_separator="/"), mode="w")
    for name, filters in [("zstd", None), ("delta", [Delta(dtype="<u2")])]:
        image = root.create_group(name)
        image.attrs["multiscales"] = multiscale(name, "0.4")
        for level in range(len(LEVELS)):
            v = values(name, level)
            z = image.create_dataset(str(level), shape=v.shape, chunks=CHUNK, dtype="<u2", fill_value=0,
                                     compressor=Zstd(level=1), filters=filters, dimension_separator="/")
            z[...] = v
            assert (z[...] == v).all()  # zarr-python reads it back


# ---- OME-Zarr 0.5: Zarr v3, sharded ---------------------------------------------------


def encode_inner(chunk, image):
    raw = packbits(chunk, 12) if image == "packbits" else chunk.astype("<u2").tobytes(order="C")
    return bytes(Zstd(level=0).encode(raw))


def inner_codecs(image):
    zstd = {"name": "zstd", "configuration": {"level": 0, "checksum": False}}
    if image == "packbits":
        return [{"name": "packbits", "configuration": {"padding_encoding": "none", "last_bit": 11}}, zstd]
    return [{"name": "bytes", "configuration": {"endian": "little"}}, zstd]


def shard_blob(v, image, shard_coords):
    """One shard: its inner chunks in C order (each whole, padded with the
    fill 0), then the index (offset, nbytes) as little-endian uint64 pairs
    and its crc32c. Inner chunks wholly outside the array are not stored."""
    per = [s // c for s, c in zip(SHARD, CHUNK)]
    offsets = np.full(tuple(per) + (2,), MAX_U64, dtype="<u8")
    body, at = [], 0
    for ic in np.ndindex(*per):
        origin = [sc * s + i * c for sc, s, i, c in zip(shard_coords, SHARD, ic, CHUNK)]
        if any(o >= n for o, n in zip(origin, v.shape)):
            continue
        chunk = np.zeros(CHUNK, dtype="<u2")
        part = v[origin[0]:origin[0] + CHUNK[0], origin[1]:origin[1] + CHUNK[1]]
        chunk[:part.shape[0], :part.shape[1]] = part
        data = encode_inner(chunk, image)
        offsets[ic] = (at, len(data))
        body.append(data)
        at += len(data)
    index = offsets.tobytes(order="C")
    return b"".join(body) + index + struct.pack("<I", crc32c(index))


def write_json(path, doc):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n")


def write_05():
    path = HERE / "ome-zarr-0.5.zarr"
    shutil.rmtree(path, ignore_errors=True)
    write_json(path / "zarr.json", {"attributes": {}, "zarr_format": 3, "node_type": "group"})
    for name in ["zstd", "packbits"]:
        write_json(path / name / "zarr.json", {
            "attributes": {"ome": {"version": "0.5", "multiscales": multiscale(name, "0.5")}},
            "zarr_format": 3, "node_type": "group",
        })
        for level in range(len(LEVELS)):
            v = values(name, level)
            grid = [-(-n // s) for n, s in zip(v.shape, SHARD)]
            for sc in np.ndindex(*grid):
                target = path / name / str(level) / "c" / str(sc[0]) / str(sc[1])
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(shard_blob(v, name, sc))
            write_json(path / name / str(level) / "zarr.json", {
                "shape": list(v.shape), "data_type": "uint16",
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(SHARD)}},
                "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                "fill_value": 0,
                "codecs": [{"name": "sharding_indexed", "configuration": {
                    "chunk_shape": list(CHUNK), "codecs": inner_codecs(name),
                    "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                    "index_location": "end"}}],
                "attributes": {}, "dimension_names": ["y", "x"],
                "zarr_format": 3, "node_type": "array", "storage_transformers": [],
            })
            check_05(path / name / str(level), v, name)


def check_05(array_dir, v, image):
    """Reads every inner chunk back with numcodecs and numpy alone (a check
    of this script; the shard layout is checked by the test's readers)."""
    per = [s // c for s, c in zip(SHARD, CHUNK)]
    for f in sorted((array_dir / "c").rglob("*")):
        if not f.is_file():
            continue
        sc = (int(f.parent.name), int(f.name))
        blob = f.read_bytes()
        index_bytes = blob[-(16 * per[0] * per[1] + 4):-4]
        assert struct.unpack("<I", blob[-4:])[0] == crc32c(index_bytes)
        index = np.frombuffer(index_bytes, dtype="<u8").reshape(per[0], per[1], 2)
        for ic in np.ndindex(*per):
            offset, n = (int(t) for t in index[ic])
            origin = [s * S + i * c for s, S, i, c in zip(sc, SHARD, ic, CHUNK)]
            if offset == MAX_U64:
                assert any(o >= m for o, m in zip(origin, v.shape))
                continue
            raw = bytes(Zstd().decode(blob[offset:offset + n]))
            if image == "packbits":
                bits = np.unpackbits(np.frombuffer(raw, dtype="u1"), bitorder="little")[:CHUNK[0] * CHUNK[1] * 12]
                got = (bits.reshape(-1, 12).astype(np.uint16) << np.arange(12, dtype=np.uint16)).sum(axis=1).astype("<u2")
            else:
                got = np.frombuffer(raw, dtype="<u2")
            got = got.reshape(CHUNK)
            part = v[origin[0]:origin[0] + CHUNK[0], origin[1]:origin[1] + CHUNK[1]]
            assert (got[:part.shape[0], :part.shape[1]] == part).all(), (array_dir, sc, ic)


if __name__ == "__main__":
    assert crc32c(b"123456789") == 0xE3069283  # the check value of CRC-32C
    write_04()
    write_05()
