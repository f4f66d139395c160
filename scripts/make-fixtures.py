#!/usr/bin/python3
"""Writes the test fixtures with the real zarr-python 2 and numcodecs.

Run with Debian's python3 after `apt-get install python3-zarr
python3-numcodecs` (zarr 2.13.6, numcodecs 0.11.0 when these were made);
`make-fixtures.py v2-filters.zarr` writes that store alone.
The stores are committed; this script is how they were made, not a test step.

Each store has an `expected.json`: per array, its shape and the little-endian
bytes of its values in C order (hex), as numpy computed them. Tests compare
what zarrita + zarr-codecs-wasm decode against those bytes.
"""
import json
import pathlib
import shutil

import numpy as np
import zarr
from numcodecs import PackBits

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"

def write_store(name, arrays):
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(str(path), mode="w")
    expected = {}
    for key, (values, chunks, filters) in arrays.items():
        z = root.create_dataset(
            key, shape=values.shape, chunks=chunks, dtype=values.dtype,
            compressor=None, filters=filters, fill_value=None)
        z[...] = values
        little = values.astype(values.dtype.newbyteorder("<"), copy=True)
        expected[key] = {
            "dtype": values.dtype.str,
            "shape": list(values.shape),
            "little_endian_hex": little.tobytes(order="C").hex(),
        }
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")

def big_endian_arrays():
    f8_patterns = np.array([0x7FF0000000000001, 0x8000000000000000,
                            0x7FF0000000000000, 0x3FF8000000000000,
                            0xFFF8DEADBEEF0001], dtype="<u8")
    f4_patterns = np.array([0x7FC00001, 0x80000000, 0xFF800000, 0x3F800000,
                            0x7F800001, 0x00000001, 0x12345678], dtype="<u4")
    return {
        "int16": (np.arange(-17, 18, dtype=">i2").reshape(5, 7), (2, 3), None),
        "uint16": (np.array([0, 1, 0xABC, 0xFFFF, 0x8000], dtype=">u2"), (2,), None),
        "int32": (np.array([-(2**31), -1, 0, 2**31 - 1, 0x01020304], dtype=">i4"), (3,), None),
        "uint32": (np.array([0xDEADBEEF, 1, 0x80000000], dtype=">u4"), (2,), None),
        "int64": (np.array([-(2**63), -1, 2**63 - 1, 0x0102030405060708], dtype=">i8"), (3,), None),
        "uint64": (np.array([0, 1, 2**63, 2**64 - 1, 0x0123456789ABCDEF], dtype=">u8"), (2,), None),
        "float32": (f4_patterns.view("<f4").astype(">f4"), (3,), None),
        "float64": (f8_patterns.view("<f8").astype(">f8"), (2,), None),
        "float16": (np.array([1.0, -0.0, 65504.0, np.inf], dtype=">f2"), (3,), None),
        "complex64": (np.array([1 + 2j, -0.0 - 3.5j, 1e30 + 0j], dtype=">c8"), (2,), None),
        "complex128": (np.array([1 + 2j, -0.0 + np.inf * 1j], dtype=">c16"), (1,), None),
        "int8": (np.array([-128, 0, 127], dtype="|i1"), (2,), None),
        "bool": (np.array([True, False, True, True, False]), (2,), None),
        "strings": (np.array(["zarr", "wasm", "ünï"], dtype=">U6"), (2,), None),
    }

def packbits_arrays():
    rng = np.random.default_rng(2024)
    return {
        # 1-d, chunk of 13 bools: numcodecs pads 3 bits in each chunk.
        "mask": (rng.random(29) > 0.5, (13,), [PackBits()]),
        # 2-d edge chunks; chunk size 8 (no padding) and 5 x 3 = 15.
        "mask2d": (rng.random((11, 7)) > 0.3, (5, 3), [PackBits()]),
        "aligned": (rng.random(16) > 0.5, (8,), [PackBits()]),
    }

def write_v3_numcodecs_packbits(name):
    """A v3 bool array as zarr-python 3 writes numcodecs.PackBits: the filter
    as an array -> array codec, then `bytes` (with no configuration member, as
    zarr-python 3 writes it for one-byte data). zarr-python 3 is not in
    Debian, so the metadata is written here; the chunks are numcodecs' own
    PackBits output, edge chunks padded with the fill value (False)."""
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    rng = np.random.default_rng(7)
    values = rng.random((5, 9)) > 0.5
    chunk_shape = (2, 4)
    codec = PackBits()
    for i in range(0, values.shape[0], chunk_shape[0]):
        for j in range(0, values.shape[1], chunk_shape[1]):
            chunk = np.zeros(chunk_shape, dtype=bool)
            part = values[i:i + chunk_shape[0], j:j + chunk_shape[1]]
            chunk[:part.shape[0], :part.shape[1]] = part
            key = path / "mask" / "c" / str(i // chunk_shape[0]) / str(j // chunk_shape[1])
            key.parent.mkdir(parents=True, exist_ok=True)
            key.write_bytes(bytes(codec.encode(chunk)))
    (path / "zarr.json").write_text(json.dumps({
        "zarr_format": 3, "node_type": "group", "attributes": {}}, indent=2))
    (path / "mask" / "zarr.json").write_text(json.dumps({
        "shape": list(values.shape),
        "data_type": "bool",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunk_shape)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": False,
        "codecs": [{"name": "numcodecs.packbits", "configuration": {}}, {"name": "bytes"}],
        "attributes": {},
        "zarr_format": 3,
        "node_type": "array",
        "storage_transformers": [],
    }, indent=2))
    (path / "expected.json").write_text(json.dumps({"mask": {
        "shape": list(values.shape),
        "little_endian_hex": values.astype("u1").tobytes().hex()}}, indent=1) + "\n")


def write_v2_data_types(name):
    """v2 arrays of the dtypes zarrita lacks (complex, datetime64,
    timedelta64, float16), as zarr-python 2 writes them, with fill values
    and chunks left unwritten (they read as the fill value), attributes with
    _ARRAY_DIMENSIONS, a "/" dimension separator, a compressor, and
    consolidated metadata. expected.json holds what zarr-python reads back
    (missing chunks filled), as little-endian bytes in C order; float16
    also widened to float32 by numpy."""
    from numcodecs import Zlib
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(str(path), mode="w")
    nan = float("nan")
    expected = {}

    def array(key, shape, chunks, dtype, fill, write, **kwargs):
        z = root.create_dataset(key, shape=shape, chunks=chunks, dtype=dtype,
                                fill_value=fill, compressor=None, **kwargs)
        write(z)
        return z

    def record(key, z, extra=None):
        values = z[...]
        entry = {
            "dtype": z.dtype.str,
            "shape": list(values.shape),
            "little_endian_hex": values.astype(values.dtype.newbyteorder("<")).tobytes(order="C").hex(),
        }
        entry.update(extra or {})
        expected[key] = entry

    def rows(z, stop):  # only the chunks holding rows < stop are written
        z[:stop] = values_for(z)[:stop]

    def values_for(z):
        n = int(np.prod(z.shape))
        if z.dtype.kind == "c":
            re = np.linspace(-3.5, 4, n)
            im = np.array([(-1) ** i * (i + 0.25) for i in range(n)])
            return (re + 1j * im).astype(z.dtype).reshape(z.shape)
        if z.dtype.kind in "Mm":
            v = np.array([(-1) ** i * (1700000000000000000 + 12345 * i) for i in range(n)], dtype="i8")
            v[1] = np.iinfo("i8").min  # NaT
            return v.view(z.dtype.newbyteorder("=")).astype(z.dtype).reshape(z.shape)
        return np.array([1.0, -0.0, 65504.0, np.inf, 6e-8, -2.5][:n] * (n // 6 + 1),
                        dtype=z.dtype)[:n].reshape(z.shape)

    # complex64, fill whose parts differ; rows 2..4 never written. (Not
    # complex(x, nan): zarr-python 2.13 reads its own [x, "NaN"] back as
    # nan + nan j, decoding the fill as x + 1j * nan.)
    z = array("c8", (5, 3), (2, 2), "<c8", complex(1.5, -2.0), lambda z: rows(z, 2))
    z.attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
    record("c8", z)
    # complex64 whose fill parts are equal: zarrita fills with one number.
    z = array("c8_equal_fill", (4,), (2,), "<c8", complex(2, 2), lambda z: rows(z, 2))
    record("c8_equal_fill", z)
    # complex128, big-endian, "/" separator, a compressor.
    z = root.create_dataset("c16", shape=(4, 2), chunks=(3, 2), dtype=">c16",
                            fill_value=0, compressor=Zlib(level=1),
                            dimension_separator="/")
    z[...] = values_for(z)
    record("c16", z)
    # datetime64[ns], NaT as the fill; the second chunk never written.
    z = array("datetime", (6,), (4,), "<M8[ns]", np.datetime64("NaT"), lambda z: rows(z, 4))
    record("datetime", z, {"int64": [str(v) for v in z[...].view("i8")]})
    # timedelta64[s], big-endian, a fill beyond 2^53.
    z = array("timedelta", (5,), (2,), ">m8[s]", np.timedelta64(1700000000000000001, "s"), lambda z: rows(z, 2))
    record("timedelta", z, {"int64": [str(v) for v in z[...].view(">i8").astype("<i8")]})
    # datetime64 with a scale factor.
    z = array("datetime_10s", (3,), (3,), "<M8[10s]", 5, lambda z: z.__setitem__(slice(None), values_for(z)))
    record("datetime_10s", z, {"int64": [str(v) for v in z[...].view("i8")]})
    # float16, NaN fill, the last row never written.
    z = array("f2", (3, 3), (1, 3), "<f2", nan, lambda z: rows(z, 2))
    record("f2", z, {"float32_hex": z[...].astype("<f4").tobytes().hex()})
    # complex in Fortran order: each value's parts together, the axes reversed.
    z = array("c16_fortran", (2, 2), (2, 2), ">c16", 0, lambda z: z.__setitem__(slice(None), values_for(z)), order="F")
    record("c16_fortran", z)
    zarr.consolidate_metadata(str(path))
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


def write_v2_filters(name):
    """Dtypes withDataTypes presents, written with numcodecs' Shuffle filter
    (zarr-python 2 reads them), and complex in order "F" with one axis
    (the same bytes as "C"). Shuffle regroups by its own elementsize."""
    from numcodecs import Shuffle, Zlib
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(str(path), mode="w")
    expected = {}
    arrays = {
        "c8_shuffle": (np.array([[1 + 2j, -0.0 - 3.5j, 1e30], [4j, 5, -6 - 6j]], dtype="<c8"), (1, 2), [Shuffle(elementsize=8)], None, "C"),
        "c16_shuffle_zlib": (np.array([1 + 2j, -0.0 + np.inf * 1j, 7 - 7j], dtype=">c16"), (2,), [Shuffle(elementsize=16)], Zlib(level=1), "C"),
        "f2_shuffle": (np.array([1.0, -0.0, 65504.0, np.inf, 0.5], dtype="<f2"), (3,), [Shuffle(elementsize=2)], None, "C"),
        "i4_shuffle_zlib": (np.arange(-6, 6, dtype="<i4").reshape(3, 4) * 100003, (2, 3), [Shuffle(elementsize=4)], Zlib(level=1), "C"),
        "c8_fortran_1d": (np.array([1 + 2j, 3 - 4j, -5j], dtype=">c8"), (2,), None, None, "F"),
        # Order "F" with a trailing dimension: each element's bytes stay
        # together, the element axes are reversed.
        "c8_fortran_2d": (np.array([[1 + 2j, 3 - 4j, -5j], [6, 7j, -8 - 8j]], dtype=">c8"), (2, 2), None, Zlib(level=1), "F"),
        "record_fortran_3d": (np.array([(i, -i * 0.5) for i in range(24)], dtype=[("n", ">i2"), ("x", "<f4")]).reshape(2, 3, 4), (2, 2, 3), None, None, "F"),
        "void_fortran_2d": (np.frombuffer(bytes(range(30)), dtype="|V3").reshape(2, 5), (2, 4), None, None, "F"),
    }
    for key, (values, chunks, filters, compressor, order) in arrays.items():
        z = root.create_dataset(key, shape=values.shape, chunks=chunks, dtype=values.dtype,
                                compressor=compressor, filters=filters, fill_value=0, order=order)
        z[...] = values
        back = z[...]
        little = back.astype(back.dtype.newbyteorder("<") if back.dtype.fields is None else
                             np.dtype([(n, back.dtype[n].newbyteorder("<")) for n in back.dtype.names]), copy=True)
        expected[key] = {"dtype": values.dtype.str, "shape": list(values.shape),
                         "little_endian_hex": little.tobytes(order="C").hex()}
        if values.dtype.kind == "f" and values.dtype.itemsize == 2:
            expected[key]["float32_hex"] = back.astype("<f4").tobytes().hex()
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["v2-filters.zarr"]:
        write_v2_filters("v2-filters.zarr")
        raise SystemExit
    write_v2_filters("v2-filters.zarr")
    write_v2_data_types("v2-data-types.zarr")
    write_store("v2-big-endian.zarr", big_endian_arrays())
    write_store("v2-packbits.zarr", packbits_arrays())
    write_v3_numcodecs_packbits("v3-numcodecs-packbits.zarr")
    print("zarr", zarr.__version__, "wrote", HERE)
