#!/usr/bin/python3
"""Writes the byte-string and variable-length-bytes fixtures.

tests/fixtures/v3-bytes.zarr: what zarr-python 3 writes for numpy "|S<n>"
arrays (null_terminated_bytes) and for variable-length bytes
(variable_length_bytes with the vlen-bytes codec). zarr-python 3 is not
installable here (Debian has zarr 2.13.6; `apt-cache policy python3-zarr`),
so the stores are written literally from its source, zarr-python at commit
d44f9f92ab4f12a8008de2553a7c9988669e3910 (2026-08-22):

- src/zarr/core/dtype/npy/bytes.py: NullTerminatedBytes.to_json(3) is
  {"name": "null_terminated_bytes", "configuration": {"length_bytes": n}},
  its fill to_json_scalar is base64.standard_b64encode of the numpy
  bytes_ (so trailing NULs are gone), default b"" -> ""; a length below 1
  is refused ("length must be >= 1"). VariableLengthBytes.to_json(3) is
  "variable_length_bytes" (and from_json takes "bytes" as its alias), its
  fill base64, default b"" -> "".
- src/zarr/core/array.py default_serializer_v3: {"name": "bytes"} (no
  endian: NullTerminatedBytes has no endianness) and
  {"name": "vlen-bytes", "configuration": {}} (codecs/vlen_utf8.py
  VLenBytesCodec.to_dict); default_compressors_v3: zstd, written
  {"name": "zstd", "configuration": {"level": 0, "checksum": false}}.
- src/zarr/core/metadata/v3.py ArrayV3Metadata.to_dict: the dataclass's
  key order (shape, data_type, chunk_grid, chunk_key_encoding, fill_value,
  codecs, attributes, zarr_format, node_type, storage_transformers), the
  default chunk key encoding {"name": "default", "configuration":
  {"separator": "/"}}.

The chunk bytes come from the real writers underneath: numpy's buffer of a
"|S<n>" chunk (what zarr-python 3's BytesCodec writes), numcodecs'
VLenBytes().encode (what its VLenBytesCodec calls) and numcodecs' Zstd, in
Debian's numcodecs 0.11.0. Edge chunks are whole chunks padded with the
fill, as zarr-python writes them. The one case zarr-python 3 writes through
its sharding codec has its index (little-endian uint64 pairs, then a
crc32c, Castagnoli, from crc32c_reference.py beside it) laid out as the
sharding spec says.
The registry's array form of a `bytes` fill (data-types/bytes/README.md)
is in one array, which zarr-python 3 does not write but the registry
allows.

tests/fixtures/v2-bytes.zarr: the same types in Zarr v2, written by the
real zarr-python 2 (Debian's 2.13.6): "|S" with base64 fills (and null),
"|O" with the vlen-bytes filter (its fill 0).

expected.json (in each): per array, its data type as the metadata names
it, the shape, each element's value in C order as numpy holds it (hex;
a "|S" value without its trailing NULs), for "|S" the raw bytes of the
whole array (hex, n bytes per element), and the keys of missing chunks.

Run: /usr/bin/python3 scripts/make-bytes-fixtures.py (running it twice
gives byte-identical stores).
"""
import base64
import json
import pathlib
import shutil
import struct
import sys

import numcodecs
import numpy as np
import zarr

# No __pycache__ left in scripts/ by the import beside this script.
sys.dont_write_bytecode = True
from crc32c_reference import crc32c  # noqa: E402

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"
ZSTD = {"name": "zstd", "configuration": {"level": 0, "checksum": False}}
VLEN = {"name": "vlen-bytes", "configuration": {}}




def compress(codecs, raw):
    for c in codecs[1:]:
        if c["name"] == "zstd":
            raw = numcodecs.Zstd(level=c["configuration"]["level"]).encode(raw)
        else:
            raise ValueError(c["name"])
    return bytes(raw)


def encode_chunk(codecs, chunk):
    """The chunk (a numpy array of the chunk's shape) through the codecs."""
    first = codecs[0]["name"]
    if first == "bytes":
        raw = np.ascontiguousarray(chunk).tobytes()
    elif first == "vlen-bytes":
        raw = numcodecs.VLenBytes().encode(np.ascontiguousarray(chunk))
    else:
        raise ValueError(first)
    return compress(codecs, raw)


def shard(inner_codecs, inner_shape, shard_array, missing_inner):
    """A sharding_indexed shard: inner chunks in C order, then the index."""
    grid = [s // c for s, c in zip(shard_array.shape, inner_shape)]
    body, index = b"", b""
    for i, coords in enumerate(np.ndindex(*grid)):
        if i in missing_inner:
            index += struct.pack("<QQ", 2**64 - 1, 2**64 - 1)
            continue
        sel = tuple(slice(c * n, (c + 1) * n) for c, n in zip(coords, inner_shape))
        data = encode_chunk(inner_codecs, shard_array[sel])
        index += struct.pack("<QQ", len(body), len(data))
        body += data
    return body + index + struct.pack("<I", crc32c(index))


def array_json(a):
    return {
        "shape": list(a["values"].shape),
        "data_type": a["data_type"],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(a["chunks"])}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": a["fill_json"],
        "codecs": a["codecs"],
        "attributes": {},
        "zarr_format": 3,
        "node_type": "array",
        "storage_transformers": [],
    }


def hexes(values):
    return [bytes(v).hex() for v in values.reshape(-1)]


def write_v3(name, arrays):
    root = FIXTURES / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    (root / "zarr.json").write_text(json.dumps(
        {"attributes": {}, "zarr_format": 3, "consolidated_metadata": None, "node_type": "group"}, indent=2) + "\n")
    expected = {}
    for key, a in arrays.items():
        path = root / key
        path.mkdir()
        (path / "zarr.json").write_text(json.dumps(array_json(a), indent=2) + "\n")
        values, chunks, fill = a["values"], a["chunks"], a["fill"]
        grid = [-(-s // c) for s, c in zip(values.shape, chunks)]
        # What a reader sees: the values, and the fill in missing chunks.
        seen = values.copy()
        missing = []
        sharding = a.get("sharding")
        for coords in np.ndindex(*grid):
            sel = tuple(slice(c * n, (c + 1) * n) for c, n in zip(coords, chunks))
            chunk_key = "c/" + "/".join(str(c) for c in coords)
            if coords in a.get("missing", ()):
                seen[sel] = fill
                missing.append(chunk_key)
                continue
            # A whole chunk, padded with the fill past the array's edge.
            chunk = np.full(chunks, fill, dtype=values.dtype)
            part = values[sel]
            chunk[tuple(slice(0, s) for s in part.shape)] = part
            if sharding:
                inner_shape, missing_inners = sharding
                missing_inner = missing_inners.get(coords, set())
                data = shard(a["inner_codecs"], inner_shape, chunk, missing_inner)
                inner_grid = [c // n for c, n in zip(chunks, inner_shape)]
                for i, inner in enumerate(np.ndindex(*inner_grid)):
                    if i in missing_inner:
                        at = tuple(slice(c * n + k * m, c * n + (k + 1) * m) for c, n, k, m in zip(coords, chunks, inner, inner_shape))
                        seen[at] = fill
                        missing.append(f"{chunk_key} inner {i}")
            else:
                data = encode_chunk(a["codecs"], chunk)
            (path / chunk_key).parent.mkdir(parents=True, exist_ok=True)
            (path / chunk_key).write_bytes(data)
        entry = {"data_type": a["data_type"], "shape": list(values.shape), "values": hexes(seen), "missing": missing}
        if values.dtype.kind == "S":
            entry["raw"] = seen.tobytes().hex()
        expected[key] = entry
    (root / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def nt_bytes(n):
    return {"name": "null_terminated_bytes", "configuration": {"length_bytes": n}}


def b64(b):
    return base64.standard_b64encode(b).decode("ascii")


def objects(items, shape):
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out.reshape(shape)


def v3_arrays():
    blobs = [b"zarr", b"", b"\x00\x01\x02\xff", bytes(range(256)) + b"tail", b"a" * 70, b"\xe9t\xe9",
             b"gone", b"gone", b"gone", b"last"]
    return {
        # numpy's |S6: interior NULs kept, trailing NULs padding, any byte.
        "labels": {
            "data_type": nt_bytes(6),
            "values": np.array([b"alpha", b"b", b"", b"c\x00d", b"\xe9t\xe9", b"sixsix", b"x\x00", b"\xff"], dtype="S6"),
            "chunks": (3,),
            "fill": b"",
            "fill_json": b64(b""),
            "codecs": [{"name": "bytes"}, ZSTD],
            "missing": [(2,)],
        },
        # A non-empty fill ("ab"), 2-d, an edge chunk, no compressor.
        "labels_fill": {
            "data_type": nt_bytes(4),
            "values": np.array([[b"w", b"x", b"yy", b"zzzz", b"q"], [b"", b"ab", b"a", b"1234", b"."]], dtype="S4"),
            "chunks": (1, 2),
            "fill": b"ab",
            "fill_json": b64(b"ab"),
            "codecs": [{"name": "bytes"}],
            "missing": [(1, 1)],
        },
        # A fill that is no UTF-8 (b"\xff"): its missing chunk is refused.
        "labels_binary_fill": {
            "data_type": nt_bytes(2),
            "values": np.array([b"ok", b"\x80", b"hi", b"yo"], dtype="S2"),
            "chunks": (2,),
            "fill": b"\xff",
            "fill_json": b64(b"\xff"),
            "codecs": [{"name": "bytes"}],
            "missing": [(1,)],
        },
        "blobs": {
            "data_type": "variable_length_bytes",
            "values": objects(blobs, (10,)),
            "chunks": (3,),
            "fill": b"",
            "fill_json": b64(b""),
            "codecs": [VLEN, ZSTD],
            "missing": [(2,)],
        },
        # The alias "bytes" with the registry's array form of the fill.
        "blobs_alias": {
            "data_type": "bytes",
            "values": objects([b"one", b"", b"three", b"\x00", b"five!", b"6"], (2, 3)),
            "chunks": (1, 3),
            "fill": b"\x01\x02\x03",
            "fill_json": [1, 2, 3],
            "codecs": [VLEN],
            "missing": [(1, 0)],
        },
        # Shards of two inner chunks; the second shard misses one.
        "blobs_sharded": {
            "data_type": "variable_length_bytes",
            "values": objects([b"s0", b"s1", b"", b"s3", b"s4", b"s5", b"s6", b"s7"], (8,)),
            "chunks": (4,),
            "fill": b"F",
            "fill_json": b64(b"F"),
            "codecs": [{
                "name": "sharding_indexed",
                "configuration": {
                    "chunk_shape": [2],
                    "codecs": [VLEN, ZSTD],
                    "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                    "index_location": "end",
                },
            }],
            "inner_codecs": [VLEN, ZSTD],
            "sharding": ((2,), {(1,): {1}}),
            "missing": [],
        },
    }


def write_v2(name):
    path = FIXTURES / name
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(str(path), mode="w")
    expected = {}

    def record(key, z, missing):
        seen = z[...]
        entry = {"dtype": z.dtype.str, "shape": list(z.shape), "values": hexes(seen.astype(object) if seen.dtype.kind == "S" else seen), "missing": missing}
        if seen.dtype.kind == "S":
            entry["raw"] = seen.tobytes().hex()
        expected[key] = entry

    # |S with a base64 fill (b"ab" -> "YWI="), a missing chunk, blosc.
    s = root.create_dataset("labels", shape=(5,), chunks=(2,), dtype="S3", fill_value=b"ab")
    s[0:4] = np.array([b"one", b"t\x00o", b"", b"\xe9"], dtype="S3")
    record("labels", s, ["2"])
    # |S with no fill (null): a missing chunk reads as zeros.
    n = root.create_dataset("labels_null", shape=(4,), chunks=(2,), dtype="S2", fill_value=None, compressor=None)
    n[0:2] = np.array([b"ab", b"c"], dtype="S2")
    # zarr-python 2 leaves such elements undefined (np.empty); withDataTypes
    # reads them as zeros, b"".
    expected["labels_null"] = {
        "dtype": "|S2", "shape": [4], "values": hexes(np.array([b"ab", b"c", b"", b""], dtype="S2")),
        "missing": ["1"], "raw": np.array([b"ab", b"c", b"", b""], dtype="S2").tobytes().hex(),
    }
    # |O with vlen-bytes: fill 0 (zarr-python 2's default), a missing chunk.
    o = root.create_dataset("blobs", shape=(5,), chunks=(2,), dtype=object, object_codec=numcodecs.VLenBytes())
    o[0:4] = objects([b"xy", b"", b"\x00\xff", b"z" * 40], (4,))
    seen = o[...]
    # zarr-python 2 reads the missing element as its fill 0; numcodecs
    # writes 0 as b"", which is what withDataTypes presents.
    seen = objects([b if isinstance(b, bytes) else b"" for b in seen], (5,))
    expected["blobs"] = {"dtype": "|O", "shape": [5], "values": hexes(seen), "missing": ["2"], "fill_value": 0}
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    write_v3("v3-bytes.zarr", v3_arrays())
    write_v2("v2-bytes.zarr")
