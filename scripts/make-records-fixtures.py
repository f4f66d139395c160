#!/usr/bin/python3
"""Writes tests/fixtures/v2-records.zarr: zarr v2 structured (record) and
fixed-width unicode arrays, with the real zarr-python 2 and numcodecs.

Run with Debian's python3 after `apt-get install python3-zarr
python3-numcodecs` (zarr 2.13.6, numpy 1.24.2, numcodecs 0.11.0 when these
were made):

    /usr/bin/python3 scripts/make-records-fixtures.py

The store is committed; this script is how it was made, not a test step.
Running it twice gives byte-identical files (the RNG is seeded; Blosc is
deterministic for a given input and settings).

Arrays (all in one group, metadata consolidated at the end):
  points       <f4,<f4,<i8 records, a non-zero structured fill; the chunk
               holding index 4 is never written (reads as the fill)
  mixed        mixed byte orders, a bool, a datetime64[ns] (with NaT), a
               (3,)-shaped f8 field, a complex64 field and a u8 field;
               no compressor, no fill value
  mixed_blosc  the same dtype and values, Blosc lz4 with byte shuffle
  nested       a record field inside a record
  labels       <U6 with fill "", the last chunk never written
  labels_be    >U6, Blosc, all written
  unicode      <U4: astral code points, an interior U+0000, a fill of an
               astral code point, the last chunk never written
  unicode_be   >U3, the same kinds of values, Blosc
  text_records a >U3 field (astral and U+0000 values) beside an <i2 and a
               |b1 field, a non-zero fill, the last chunk never written
  void         |V3 with zarr-python's default fill (base64 "AAAA"), the
               last chunk never written
  void_fill    |V3 with the fill 01 02 03 (base64 "AQID"), the last chunk
               never written

expected.json (json.dumps indent=1), per array name:
  dtype        z.dtype.descr (lists) for records, z.dtype.str for strings
  shape, chunks
  fill_value   exactly as in the array's .zarray (records: base64 of the
               fill record's bytes, or null; strings: the string)
  record_bytes (records) the itemsize
  le_hex       (records) z[...] with every field, recursively, converted to
               little-endian (nested records, shaped fields, complex and
               datetime fields included), C order, as hex
  fields       (records) one entry per leaf field, dotted path for nested
               fields ("p.x"): {"dtype": little-endian dtype str,
               "shape": array shape + the field's own shape,
               "le_hex": that column as numpy reads it, little-endian}
  strings      (strings) z[...].ravel().tolist(), C order
  item_bytes, hex  (void) the itemsize, and z[...]'s bytes in C order
Values are what zarr-python's z[...] returns: chunks never written read as
the fill value.

zarr-python 2.13 quirk: create_dataset(fill_value=<np.void record>) raises
"Cannot compare structured or void to non-void arrays" (its
normalize_fill_value compares the fill with 0 first), so the fill record
is passed as a tuple; .zarray then holds it as base64 of its bytes.
"""
import json
import pathlib
import shutil

import numpy as np
import zarr
from numcodecs import Blosc

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"

BLOSC = dict(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE)

MIXED_DTYPE = np.dtype([("a", ">i2"), ("b", "<u4"), ("flag", "|b1"),
                        ("t", ">M8[ns]"), ("pos", ">f8", (3,)), ("c", ">c8"),
                        ("u", ">u8")])
NESTED_DTYPE = np.dtype([("p", [("x", ">f4"), ("y", ">f4")]), ("v", ">f8"),
                         ("k", "|i1")])
POINTS_DTYPE = np.dtype([("x", "<f4"), ("y", "<f4"), ("id", "<i8")])


def little_endian(dtype):
    """The same dtype with every field, recursively, little-endian."""
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        return np.dtype((little_endian(base), shape))
    if dtype.names is not None:
        return np.dtype({
            "names": list(dtype.names),
            "formats": [little_endian(dtype.fields[n][0]) for n in dtype.names],
            "offsets": [dtype.fields[n][1] for n in dtype.names],
            "itemsize": dtype.itemsize,
        })
    return dtype.newbyteorder("<")


def leaves(dtype, prefix=""):
    """(dotted path, name chain, dtype) for each leaf field."""
    for name in dtype.names:
        sub = dtype.fields[name][0]
        base = sub.subdtype[0] if sub.subdtype is not None else sub
        if base.names is not None:  # (no shaped record fields are used here)
            for path, chain, leaf in leaves(base, prefix + name + "."):
                yield path, (name,) + chain, leaf
        else:
            yield prefix + name, (name,), sub


def swapped_bytes(column):
    """Little-endian bytes of a non-record column, by reversing each scalar's
    bytes (complex: each part; unicode: each UTF-32 code unit) -- a check
    on numpy's astype, not a use of it."""
    base = column.dtype.subdtype[0] if column.dtype.subdtype else column.dtype
    raw = np.ascontiguousarray(column).view(np.uint8)
    size = base.itemsize // 2 if base.kind == "c" else 4 if base.kind == "U" else base.itemsize
    if base.byteorder != ">" or size == 1:
        return raw.tobytes()
    return raw.reshape(-1, size)[:, ::-1].tobytes()


def record_entry(z, meta):
    values = z[...]
    le = little_endian(z.dtype)
    entry = {
        "dtype": z.dtype.descr,
        "shape": list(z.shape),
        "chunks": list(z.chunks),
        "fill_value": meta["fill_value"],
        "record_bytes": z.dtype.itemsize,
        "le_hex": values.astype(le).tobytes(order="C").hex(),
        "fields": {},
    }
    for path, chain, leaf in leaves(z.dtype):
        column = values
        for name in chain:
            column = column[name]
        column = np.ascontiguousarray(column)
        le_leaf = little_endian(leaf)
        le_base = le_leaf.subdtype[0] if le_leaf.subdtype else le_leaf
        data = column.astype(le_base).tobytes(order="C")
        assert data == swapped_bytes(column), path
        entry["fields"][path] = {
            "dtype": le_base.str,
            "shape": list(column.shape),
            "le_hex": data.hex(),
        }
    return entry


def string_entry(z, meta):
    return {
        "dtype": z.dtype.str,
        "shape": list(z.shape),
        "chunks": list(z.chunks),
        "fill_value": meta["fill_value"],
        "strings": z[...].ravel(order="C").tolist(),
    }


def void_entry(z, meta):
    return {
        "dtype": z.dtype.str,
        "shape": list(z.shape),
        "chunks": list(z.chunks),
        "fill_value": meta["fill_value"],
        "item_bytes": z.dtype.itemsize,
        "hex": z[...].tobytes(order="C").hex(),
    }


def bits(dtype, patterns):
    """Values of a float dtype with the given bit patterns."""
    dtype = np.dtype(dtype)
    return np.array(patterns, dtype=dtype.byteorder + "u%d" % dtype.itemsize).view(dtype)


def points_values():
    values = np.zeros(4, dtype=POINTS_DTYPE)
    values["x"] = [0.5, -0.0, 3.25, np.inf]
    values["y"] = np.concatenate([bits("<f4", [0x7FC00ABC]), [1e-40, -7.0, 65504.0]])
    values["id"] = [0, -(2**63), 2**63 - 1, -42]
    return values


def mixed_values(rng):
    shape = (4, 3)
    n = 12
    v = np.zeros(shape, dtype=MIXED_DTYPE)
    a = rng.integers(-1000, 1000, n)
    a[:4] = [-32768, 32767, -1, -300]
    v["a"] = a.reshape(shape)
    b = rng.integers(0, 2**32, n, dtype=np.uint64)
    b[:3] = [0, 2**32 - 1, 0xDEADBEEF]
    v["b"] = b.reshape(shape)
    v["flag"] = (np.arange(n) % 3 == 1).reshape(shape)
    t = rng.integers(-(2**62), 2**62, n, dtype=np.int64)
    t[:4] = [-(2**63), 0, 1700000000123456789, -1]  # NaT first
    v["t"] = t.view("<M8[ns]").reshape(shape)
    pos = rng.normal(size=(n, 3)) * 100
    pos = pos.astype(">f8")
    pos[0] = bits(">f8", [0x7FF8DEADBEEF0001, 0x8000000000000000, 0x7FF0000000000000])
    pos[1] = bits(">f8", [0xFFF0000000000000, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF])
    pos[2] = bits(">f8", [0x7FF4000000000001, 0x3FF0000000000000, 0xFFF8000000000000])
    v["pos"] = pos.reshape(shape + (3,))
    parts = (rng.normal(size=(n, 2)) * 10).astype(">f4")
    parts[0] = bits(">f4", [0x7FC00001, 0x80000000])      # NaN with payload, -0.0
    parts[1] = bits(">f4", [0x7F800000, 0xFFC0DEAD])      # inf, -NaN with payload
    parts[2] = bits(">f4", [0x00000001, 0x3F800000])      # smallest subnormal, 1
    v["c"] = parts.view(">c8").reshape(shape)
    u = rng.integers(0, 2**63, n, dtype=np.uint64)
    u[:4] = [2**64 - 1, 0, 2**63, 0x0123456789ABCDEF]
    v["u"] = u.reshape(shape)
    return v


def nested_values():
    v = np.zeros(3, dtype=NESTED_DTYPE)
    v["p"]["x"] = np.concatenate([bits(">f4", [0x7FC00123]), [-0.0, 2.5]])
    v["p"]["y"] = [1.0, np.inf, -3.75]
    v["v"] = np.concatenate([[1e300, -0.0], bits(">f8", [0x7FF8000000000BAD])])
    v["k"] = [-128, 127, -1]
    return v


LABELS = ["zarr", "\u00fcn\u00ef", "\u65e5\u672c", "", "x" * 6, "\U0001F642ab"]
LABELS_BE = ["a", "\u00fcn\u00ef", "\u65e5\u672c\u8a9e", "", "x" * 6,
             "\U0001F642ab", "\u03a9", "zarr", "tab\t", "\u00e9" * 6,
             "\U0001D11E", "end"]
# Every kind of code point a UTF-16 container gets wrong: astral ones
# (four of them fill a <U4), an interior U+0000 (numpy keeps it; trailing
# U+0000 is padding), the largest code point.
UNICODE = ["\U0001F600\U0001F601\U0001F602\U0001F603", "x\x00y", "\x00z",
           "\U0010FFFFa", "", "\u00e9\U0001D11E"]
UNICODE_BE = ["\U0001F642", "a\x00\U0001F600", "\U00010000\uffff\ud7ff", "abc"]
TEXT_RECORDS_DTYPE = np.dtype([("s", ">U3"), ("n", "<i2"), ("ok", "|b1")])
TEXT_RECORDS = [("\U0001F600x", -2, True), ("a\x00b", 300, False),
                ("\U0010FFFF\U0001F642\u00e9", 7, True)]
VOID = [bytes([1, 2, 3]), bytes([255, 0, 128]), bytes([0, 0, 7]), bytes([9, 8, 7])]


def write_records(name):
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(str(path), mode="w")
    rng = np.random.default_rng(20240611)
    written = {}

    def dataset(key, **kwargs):
        return root.create_dataset(key, **kwargs)

    # points: non-zero structured fill; indices 0..3 only (chunk 2 unwritten).
    z = dataset("points", shape=(5,), chunks=(2,), dtype=POINTS_DTYPE,
                compressor=None, fill_value=(1.5, -2.0, 7))
    z[:4] = points_values()
    written["points"] = np.concatenate(
        [points_values(), np.array([(1.5, -2.0, 7)], dtype=POINTS_DTYPE)])

    mixed = mixed_values(rng)
    z = dataset("mixed", shape=(4, 3), chunks=(2, 2), dtype=MIXED_DTYPE,
                compressor=None, fill_value=None)
    z[...] = mixed
    written["mixed"] = mixed
    z = dataset("mixed_blosc", shape=(4, 3), chunks=(2, 2), dtype=MIXED_DTYPE,
                compressor=Blosc(**BLOSC), fill_value=None)
    z[...] = mixed
    written["mixed_blosc"] = mixed

    z = dataset("nested", shape=(3,), chunks=(2,), dtype=NESTED_DTYPE,
                compressor=None)
    z[...] = nested_values()
    written["nested"] = nested_values()

    z = dataset("labels", shape=(7,), chunks=(3,), dtype="<U6",
                compressor=None, fill_value="")
    z[:6] = np.array(LABELS, dtype="<U6")  # chunk 2 (index 6) unwritten

    z = dataset("labels_be", shape=(3, 4), chunks=(2, 2), dtype=">U6",
                compressor=Blosc(**BLOSC))
    z[...] = np.array(LABELS_BE, dtype=">U6").reshape(3, 4)

    z = dataset("unicode", shape=(8,), chunks=(3,), dtype="<U4",
                compressor=None, fill_value="\U0001F600")
    z[:6] = np.array(UNICODE, dtype="<U4")  # chunk 2 (indices 6, 7) unwritten

    z = dataset("unicode_be", shape=(2, 2), chunks=(1, 2), dtype=">U3",
                compressor=Blosc(**BLOSC), fill_value="")
    z[...] = np.array(UNICODE_BE, dtype=">U3").reshape(2, 2)

    z = dataset("text_records", shape=(5,), chunks=(3,), dtype=TEXT_RECORDS_DTYPE,
                compressor=None, fill_value=("\U0001F642", 5, True))
    z[:3] = np.array(TEXT_RECORDS, dtype=TEXT_RECORDS_DTYPE)  # chunk 1 unwritten
    written["text_records"] = np.array(
        TEXT_RECORDS + [("\U0001F642", 5, True)] * 2, dtype=TEXT_RECORDS_DTYPE)

    for key, fill in [("void", None), ("void_fill", bytes([1, 2, 3]))]:
        z = dataset(key, shape=(6,), chunks=(4,), dtype="|V3", compressor=None,
                    **({} if fill is None else {"fill_value": fill}))
        z[:4] = np.frombuffer(b"".join(VOID), dtype="|V3")  # chunk 1 unwritten

    zarr.consolidate_metadata(str(path))

    expected = {}
    for key in ["points", "mixed", "mixed_blosc", "nested", "labels", "labels_be",
                "unicode", "unicode_be", "text_records", "void", "void_fill"]:
        z = root[key]
        meta = json.loads((path / key / ".zarray").read_text())
        if z.dtype.kind == "V" and z.dtype.names is None:
            expected[key] = void_entry(z, meta)
        elif z.dtype.names is not None:
            # zarr-python reads back exactly the bits that were written.
            assert z[...].tobytes() == written[key].tobytes(), key
            expected[key] = record_entry(z, meta)
        else:
            expected[key] = string_entry(z, meta)
    assert expected["labels"]["strings"] == LABELS + [""]
    assert expected["labels_be"]["strings"] == LABELS_BE
    assert expected["unicode"]["strings"] == UNICODE + ["\U0001F600"] * 2
    assert expected["unicode_be"]["strings"] == UNICODE_BE
    assert expected["void"]["fill_value"] == "AAAA"
    assert expected["void"]["hex"] == (b"".join(VOID) + bytes(6)).hex()
    assert expected["void_fill"]["hex"] == (b"".join(VOID) + bytes([1, 2, 3]) * 2).hex()
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    write_records("v2-records.zarr")
    print("zarr", zarr.__version__, "wrote", HERE / "v2-records.zarr")
