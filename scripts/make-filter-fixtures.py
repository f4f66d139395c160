#!/usr/bin/python3
"""Writes the fixtures of numcodecs' filters and the v3 array -> array codecs
bitround and reshape (tests/fixtures/v2-numcodecs-filters.zarr and
v3-array-to-array.zarr).

Run with Debian's python3 (zarr 2.13.6, numcodecs 0.11.0, numpy 1.24 when
these were made). The stores are committed; this script is how they were
made, not a test step.

- v2-numcodecs-filters.zarr: Zarr v2 arrays written by zarr-python 2 with
  numcodecs' Delta, FixedScaleOffset, Quantize, BitRound, AsType (and
  Shuffle after Delta), on random data and the edge cases: NaN, +-0,
  +-inf, the integer limits, wrap-around, ties. `expected.json` holds what
  zarr-python 2 reads back (numcodecs' decode), as little-endian hex.
- v3-array-to-array.zarr: Zarr v3 arrays whose chunks this script encodes
  itself, as zarr-python 3 lays them out (zarr/codecs/numcodecs/_codecs.py
  is the model: the numcodecs.* codecs are numcodecs' own encode, the
  configuration its get_config() less the id; edge chunks padded with the
  fill value). zarr-python 3 is not in Debian. `bitround` on integers and
  `reshape` follow the zarr-extensions pages (restated in docs/codecs.md):
  bitround rounds an integer's bits from its most significant set bit as
  zarrs does (the page's reference implementation), reshape stores the
  chunk's elements in the same C order under another shape.
  `expected.json` holds the values the reader should give, computed here
  with numpy (numcodecs' decode for the numcodecs.* ones).
In both, `input_hex` is the values before encoding (what was written), for
the tests of the codecs' encode against the stored chunks.
- `casts.json` in the v2 store: numpy's astype on x86-64 of edge values
  (out of range, NaN, inf), for the package's cast helpers.
"""
import json
import pathlib
import shutil
import warnings

import numpy as np
import zarr
from numcodecs import AsType, BitRound, Delta, FixedScaleOffset, Quantize, Shuffle, Zlib, get_codec

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"
warnings.simplefilter("ignore")  # numpy warns of the NaN and overflow casts the edge cases make


def little_hex(values):
    return values.astype(values.dtype.newbyteorder("<")).tobytes(order="C").hex()


def edge_floats(dtype, rng, n):
    info = np.finfo(dtype)
    edges = [np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf, info.max, -info.max, info.tiny, info.tiny / 4, 1.0, -1.5]
    return np.concatenate([np.array(edges, dtype=dtype), (rng.standard_normal(n) * 1000).astype(dtype)])


def edge_ints(dtype, rng, n):
    info = np.iinfo(dtype)
    edges = [info.min, info.max, 0, 1, info.max, info.min, info.max - 1, info.min + 1]
    native = np.dtype(dtype).newbyteorder("=")
    return np.concatenate([np.array(edges, dtype=native), rng.integers(info.min, info.max, n, dtype=native, endpoint=True)]).astype(dtype)


def v2_arrays():
    rng = np.random.default_rng(35)
    # Ties at every step of FixedScaleOffset's around: x.5 after scaling.
    ties = (np.arange(-8, 8) + 0.5) / 10 + 1000
    f4_case = np.array([293.92, 250.0, 250.005, 250.015, 250.025, 905.35, 250.0 - 0.005], dtype="<f4")
    quantize_ties = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.5, 1 / 3, 2 / 3], dtype="<f8") / 8
    arrays = {
        # Delta: integers wrap around, in the dtype and into a narrower astype.
        "delta_i2": (edge_ints("<i2", rng, 40), (7,), [Delta(dtype="<i2")]),
        "delta_u1": (np.array([0, 255, 0, 255, 1, 254, 128, 127] * 3, dtype="u1"), (5,), [Delta(dtype="u1")]),
        "delta_i2_as_i1": (np.arange(100, 160, 3, dtype="<i2") * np.array(1, "<i2") - 20, (6,), [Delta(dtype="<i2", astype="<i1")]),
        "delta_i8": (edge_ints("<i8", rng, 20), (6,), [Delta(dtype="<i8")]),
        "delta_u8": (edge_ints("<u8", rng, 20), (6,), [Delta(dtype="<u8")]),
        "delta_f4": (edge_floats("<f4", rng, 20), (9,), [Delta(dtype="<f4")]),
        "delta_f8": (edge_floats("<f8", rng, 20), (9,), [Delta(dtype="<f8")]),
        "delta_f4_as_f8": (edge_floats("<f4", rng, 20), (8,), [Delta(dtype="<f4", astype="<f8")]),
        # float32 data stored as int32 differences: numpy's cumsum keeps its
        # running sum in float64 (2^24 + 1 + 1 is not 2^24).
        "delta_f4_as_i4": (np.array([2**24, 2**24 + 1, 2**24 + 2, 2**24 + 3, -7, 1e9, -2.5, 3.5] * 2, dtype="<f4"), (16,), [Delta(dtype="<f4", astype="<i4")]),
        "delta_i4_2d_shuffle_zlib": (rng.integers(-5000, 5000, (7, 9), dtype="<i4").cumsum(axis=1).astype("<i4"), (3, 4), [Delta(dtype="<i4"), Shuffle(elementsize=4)], Zlib(level=1)),
        "delta_be_i4": (edge_ints(">i4", rng, 12), (5,), [Delta(dtype=">i4")]),
        # FixedScaleOffset: around is ties-to-even; out-of-range values wrap.
        "fso_f8_u1": (np.concatenate([np.linspace(1000, 1025, 30), ties, [1030.0, 999.9, 1000 - 0.05]]), (11,), [FixedScaleOffset(offset=1000, scale=10, dtype="<f8", astype="u1")]),
        "fso_f4_u2": (np.concatenate([f4_case, (rng.random(25) * 600 + 250).astype("<f4")]), (8,), [FixedScaleOffset(offset=250, scale=100, dtype="<f4", astype="<u2")]),
        # A scale beyond 65535 makes numpy compute float32 data in float64.
        "fso_f4_i4_big_scale": ((rng.random(20) * 100).astype("<f4"), (7,), [FixedScaleOffset(offset=-3, scale=100000, dtype="<f4", astype="<i4")]),
        "fso_f8_i8": (np.concatenate([rng.standard_normal(15) * 1e12, [0.125, -0.375, 2.5, 3.5]]), (6,), [FixedScaleOffset(offset=-3.5, scale=0.25, dtype="<f8", astype="<i8")]),
        "fso_i4_i2": (edge_ints("<i4", rng, 15), (6,), [FixedScaleOffset(offset=7, scale=3, dtype="<i4", astype="<i2")]),
        "fso_f4_f4": (edge_floats("<f4", rng, 15), (6,), [FixedScaleOffset(offset=0.5, scale=3, dtype="<f4")]),
        "fso_f8_u1_edges": (np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e300, -1e300, 1025.5, 1000.05], dtype="<f8"), (4,), [FixedScaleOffset(offset=1000, scale=10, dtype="<f8", astype="u1")]),
        "fso_be_f8_u2": (np.linspace(-5, 5, 17).astype(">f8"), (5,), [FixedScaleOffset(offset=-5, scale=1000, dtype=">f8", astype=">u2")]),
        # Quantize: float arithmetic in the dtype, ties to even.
        "quantize_f8_d1": (np.concatenate([edge_floats("<f8", rng, 20), quantize_ties]), (9,), [Quantize(digits=1, dtype="<f8")]),
        "quantize_f8_d3": (edge_floats("<f8", rng, 20), (9,), [Quantize(digits=3, dtype="<f8")]),
        "quantize_f4_d2": (np.concatenate([edge_floats("<f4", rng, 20), quantize_ties.astype("<f4")]), (9,), [Quantize(digits=2, dtype="<f4")]),
        "quantize_f8_as_f4_d5": (edge_floats("<f8", rng, 20), (9,), [Quantize(digits=5, dtype="<f8", astype="<f4")]),
        "quantize_f4_dm1": ((rng.standard_normal(20) * 1000).astype("<f4"), (9,), [Quantize(digits=-1, dtype="<f4")]),
        "quantize_f8_d12": (rng.standard_normal(20), (9,), [Quantize(digits=12, dtype="<f8")]),
        # BitRound: mantissa rounding, ties to even, overflow into the exponent.
        "bitround_f4_k10": (edge_floats("<f4", rng, 30), (9,), [BitRound(keepbits=10)]),
        "bitround_f4_k0": (edge_floats("<f4", rng, 10), (9,), [BitRound(keepbits=0)]),
        "bitround_f4_k23": (edge_floats("<f4", rng, 10), (9,), [BitRound(keepbits=23)]),
        "bitround_f8_k20": (edge_floats("<f8", rng, 30), (9,), [BitRound(keepbits=20)]),
        "bitround_f8_k1": (edge_floats("<f8", rng, 10), (9,), [BitRound(keepbits=1)]),
        # AsType: numpy's casts both ways.
        "astype_f8_as_f4": (edge_floats("<f8", rng, 20), (9,), [AsType(encode_dtype="<f4", decode_dtype="<f8")]),
        "astype_i4_as_i1": (edge_ints("<i4", rng, 20), (9,), [AsType(encode_dtype="<i1", decode_dtype="<i4")]),
        "astype_f8_as_u1": (np.array([np.nan, np.inf, -np.inf, -1.5, 255.9, 256.0, 300.5, -0.0, 2.0**31, 1e10], dtype="<f8"), (4,), [AsType(encode_dtype="u1", decode_dtype="<f8")]),
        "astype_f8_as_u4": (np.array([np.nan, np.inf, -np.inf, -1.5, 2.0**31, 2.0**32, 5e9, -3e9, 4294967295.0, 1e19], dtype="<f8"), (4,), [AsType(encode_dtype="<u4", decode_dtype="<f8")]),
        "astype_f8_as_i8": (np.array([np.nan, np.inf, -np.inf, -1.5, 2.0**63, -(2.0**63), 9007199254740993.0, 1e19], dtype="<f8"), (4,), [AsType(encode_dtype="<i8", decode_dtype="<f8")]),
        "astype_f8_as_u8": (np.array([np.nan, np.inf, -np.inf, -1.5, 2.0**63, 2.0**64, -3e9, 1e19], dtype="<f8"), (4,), [AsType(encode_dtype="<u8", decode_dtype="<f8")]),
        "astype_f4_as_i8": (np.array([np.nan, 16777217.0, 2.0**62, -(2.0**40) - 1, 3.5, -3.5], dtype="<f4"), (4,), [AsType(encode_dtype="<i8", decode_dtype="<f4")]),
    }
    arrays.update(random_configurations())
    # Filter lists the differential fuzzer (tests/fuzz/js/filters-differential.mjs)
    # found read wrong: a shuffle before another filter (numcodecs decodes
    # the delta first, then the shuffle); two fixedscaleoffsets, and one
    # after another filter storing the array's dtype (zarrita 0.7's v2
    # conversion loses that astype: zarr.get there cannot read it, read
    # reads the .zarray's filters); a signalling NaN first in delta chunks
    # (numpy's cumsum copies it as it is).
    ints = (np.arange(-300, 300, 7, dtype="<i2") * 11).astype("<i2")
    snan = np.array([0x7F800001, 0x40490FDB, 0x7F800002, 0x3F800000, 0xFFA00001, 0x00000001], dtype="<u4").view("<f4")
    arrays.update({
        "shuffle_before_delta_i2": (ints, (16,), [Shuffle(elementsize=2), Delta(dtype="<i2")], Zlib(level=1)),
        "fso_after_fso_i2": ((np.arange(-300, 300, 7) % 2000).astype("<i2"), (16,), [FixedScaleOffset(offset=1, scale=1, dtype="<i2", astype="<i2"), FixedScaleOffset(offset=-273.15, scale=10, dtype="<i2", astype="<u2")]),
        "fso_u1_i8_then_i8_u1": (np.arange(0, 250, 3, dtype="u1"), (9,), [FixedScaleOffset(offset=3, scale=2, dtype="u1", astype="<i8"), FixedScaleOffset(offset=-5, scale=1, dtype="<i8", astype="u1")]),
        "delta_f4_signalling_nan_first": (snan, (2,), [Delta(dtype="<f4")]),
        # The byte order of a filter's astype, not the array's: numcodecs
        # stores the outermost filter's encoded type.
        "fso_be_f8_as_le_i2": (np.array([1.5, 2, -3.1, 100, 0.1, 7.7], dtype=">f8"), (4,), [FixedScaleOffset(offset=0, scale=10, dtype=">f8", astype="<i2")]),
        "fso_le_f8_as_be_i2": (np.array([1.5, 2, -3.1, 100, 0.1, 7.7], dtype="<f8"), (4,), [FixedScaleOffset(offset=0, scale=10, dtype="<f8", astype=">i2")]),
        "delta_be_i4_as_le_i2": (np.array([5, 7, -3, 1000, 2, 9], dtype=">i4"), (4,), [Delta(dtype=">i4", astype="<i2")]),
        # Python floats with integral values, written "1000000.0" in the
        # .zarray: a float scalar keeps float32 arithmetic in float32,
        # where the int 1000000 would take it to float64 (numpy 1.24's
        # value-based promotion): decoded values differ in their last bits.
        "fso_f4_float_scalars": ((np.random.default_rng(40).standard_normal(64) * 1000).astype("<f4"), (16,), [FixedScaleOffset(offset=-1000000.0, scale=1000000.0, dtype="<f4", astype="<f4")]),
    })
    return arrays


def random_configurations():
    """Filters with random configurations (seeded): dtypes, astypes, scales
    and offsets of every size, so numpy's promotions are met in many
    combinations. Values are chosen so that the encoded ones fit `astype`
    (numpy calls casts beyond it undefined; the edge cases above cover what
    it gives for those)."""
    rng = np.random.default_rng(3535)
    ints = ["<i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8"]
    floats = ["<f4", "<f8"]
    arrays = {}

    def random_values(dtype, n):
        dt = np.dtype(dtype)
        if dt.kind == "f":
            return (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 6)).astype(dt)
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, n, dtype=dt.newbyteorder("="), endpoint=True).astype(dt)

    for k in range(8):
        dtype = str(rng.choice(ints + floats))
        kind = np.dtype(dtype).kind
        astype = str(rng.choice([t for t in ints + floats if np.dtype(t).kind == kind or (kind != "f" and np.dtype(t).kind == "f" and np.dtype(t).itemsize == 8)]))
        arrays[f"random_delta_{k}"] = (random_values(dtype, int(rng.integers(5, 30))), (int(rng.integers(2, 9)),), [Delta(dtype=dtype, astype=astype)])
    for k in range(10):
        dtype = str(rng.choice(floats + ["<i4", "<i8", "<i2"]))
        astype = str(rng.choice(ints + floats))
        offset = float(rng.standard_normal() * 10.0 ** rng.integers(0, 7)) if rng.random() < 0.5 else int(rng.integers(-10**6, 10**6))
        scale = float(10.0 ** rng.integers(-2, 6)) if rng.random() < 0.4 else int(10 ** rng.integers(0, 7))
        at = np.dtype(astype)
        lo, hi = (np.iinfo(at).min, np.iinfo(at).max) if at.kind != "f" else (-1e6, 1e6)
        lo, hi = max(lo, -2**40), min(hi, 2**40)
        stored = rng.integers(lo, hi, int(rng.integers(5, 30)), endpoint=True).astype("f8")
        values = (stored / scale + offset).astype(dtype)
        arrays[f"random_fso_{k}"] = (values, (int(rng.integers(2, 9)),), [FixedScaleOffset(offset=offset, scale=scale, dtype=dtype, astype=astype)])
    for k in range(6):
        dtype, astype = str(rng.choice(floats)), str(rng.choice(floats))
        arrays[f"random_quantize_{k}"] = (random_values(dtype, 20), (7,), [Quantize(digits=int(rng.integers(-3, 13)), dtype=dtype, astype=astype)])
    for k in range(4):
        dtype = str(rng.choice(floats))
        keepbits = int(rng.integers(0, 24 if dtype == "<f4" else 53))
        arrays[f"random_bitround_{k}"] = (random_values(dtype, 20), (7,), [BitRound(keepbits=keepbits)])
    for k in range(6):
        decode = str(rng.choice(ints + floats))
        kind = np.dtype(decode).kind
        encode = str(rng.choice([t for t in ints + floats if (np.dtype(t).kind == "f") == (kind == "f")]))
        values = random_values(decode, 20)
        if kind == "f" and np.dtype(encode).itemsize < np.dtype(decode).itemsize:
            values = values.astype(encode).astype(decode)  # a narrower float rounds; a value beyond it would be inf
        arrays[f"random_astype_{k}"] = (values, (7,), [AsType(encode_dtype=encode, decode_dtype=decode)])
    return arrays


def write_v2(name):
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(str(path), mode="w")
    expected = {}
    for key, spec in v2_arrays().items():
        values, chunks, filters = spec[:3]
        compressor = spec[3] if len(spec) > 3 else None
        z = root.create_dataset(key, shape=values.shape, chunks=chunks, dtype=values.dtype,
                                compressor=compressor, filters=filters, fill_value=0)
        z[...] = values
        back = z[...]
        expected[key] = {"dtype": back.dtype.str, "shape": list(back.shape), "little_endian_hex": little_hex(back),
                         "input_hex": little_hex(values)}
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    # numpy's casts of edge values, for the cast helpers' unit tests.
    sources = np.array([np.nan, np.inf, -np.inf, -0.0, 0.5, -1.5, 255.5, 300.5, 2.0**31 - 1.5, 2.0**31, 2.0**32 - 1,
                        2.0**32, 5e9, -3e9, -(2.0**31) - 1, 2.0**63, -(2.0**63) - 4096, 2.0**63 + 4096, 1e19, 1e20], dtype="<f8")
    casts = {"float64": [repr(float(v)) for v in sources]}
    for t in ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"]:
        casts[np.dtype(t).name] = [str(int(v)) for v in sources.astype(t)]
    big = np.array([2**53 + 1, 2**62 + 2**38 + 1, -(2**62) - 2**38, 2**63 - 1, -(2**63), 16777217, 2**24 + 3], dtype="<i8")
    casts["int64_to_float32"] = {"int64": [str(int(v)) for v in big], "float32_hex": big.astype("<f4").tobytes().hex()}
    # Quantize's bits for each digits, computed as numcodecs 0.11's encode
    # does (numcodecs/quantize.py), for the package's quantizeBits.
    import math
    casts["quantize_bits"] = {}
    for digits in range(-5, 20):
        precision = 10. ** -digits
        exp = math.log(precision, 10)
        exp = int(math.floor(exp)) if exp < 0 else int(math.ceil(exp))
        casts["quantize_bits"][str(digits)] = math.ceil(math.log(10. ** -exp, 2))
    (path / "casts.json").write_text(json.dumps(casts, indent=1) + "\n")


def zarrs_round_int(u, keepbits, width):
    """The bitround page's integer rounding (zarrs' round_bits on unsigned
    bits): from the most significant set bit, ties to even, saturating."""
    maxbits = int(u).bit_length()
    if keepbits >= maxbits:
        return u
    maskbits = maxbits - keepbits
    allset = (1 << width) - 1
    mask = ((allset >> maskbits) << maskbits) & allset
    half = (1 << (maskbits - 1)) - 1
    return min(u + ((u >> maskbits) & 1) + half, allset) & mask


def bitround_ints(values, keepbits):
    width = values.dtype.itemsize * 8
    bits = values.view(f"<u{values.dtype.itemsize}")
    out = np.array([zarrs_round_int(int(b), keepbits, width) for b in bits], dtype=bits.dtype)
    return out.view(values.dtype)


def write_v3(name):
    """Chunks encoded here, filter by filter, then `bytes`; no compressor but
    where named, so the stored bytes are the filters' own."""
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    (path / "zarr.json").write_text(json.dumps({"zarr_format": 3, "node_type": "group", "attributes": {}}, indent=2))
    rng = np.random.default_rng(350)
    expected = {}

    def numcodecs_entry(codec):
        config = codec.get_config()
        return {"name": f"numcodecs.{config.pop('id')}", "configuration": config}

    def write(key, values, chunk_shape, codecs, encode_chunk, fill, decoded=None, big_endian=False):
        """encode_chunk(chunk) -> the array the bytes codec stores."""
        root = path / key
        grid = [-(-s // c) for s, c in zip(values.shape, chunk_shape)]
        for index in np.ndindex(*grid):
            chunk = np.full(chunk_shape, fill, dtype=values.dtype)
            part = values[tuple(slice(i * c, (i + 1) * c) for i, c in zip(index, chunk_shape))]
            chunk[tuple(slice(0, s) for s in part.shape)] = part
            stored = np.ascontiguousarray(encode_chunk(chunk))
            stored = stored.astype(stored.dtype.newbyteorder(">" if big_endian else "<"))
            target = root / "c" / "/".join(str(i) for i in index)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(stored.tobytes(order="C"))
        fill_json = fill if not isinstance(fill, float) or np.isfinite(fill) else ("NaN" if np.isnan(fill) else ("Infinity" if fill > 0 else "-Infinity"))
        (root / "zarr.json").write_text(json.dumps({
            "zarr_format": 3, "node_type": "array", "shape": list(values.shape), "data_type": values.dtype.name,
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunk_shape)}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "fill_value": fill_json,
            "codecs": codecs + [{"name": "bytes", "configuration": {"endian": "big" if big_endian else "little"}}],
            "attributes": {},
        }, indent=2))
        result = values if decoded is None else decoded
        expected[key] = {"dtype": result.dtype.str, "shape": list(result.shape), "little_endian_hex": little_hex(result),
                         "input_hex": little_hex(values)}

    def numcodecs_array(key, values, chunk_shape, codec, fill=0, big_endian=False):
        # What a reader gives: numcodecs' decode of its encode, chunk by chunk
        # (values past the edge are dropped).
        decoded = np.empty_like(values)
        grid = [-(-s // c) for s, c in zip(values.shape, chunk_shape)]
        for index in np.ndindex(*grid):
            sl = tuple(slice(i * c, (i + 1) * c) for i, c in zip(index, chunk_shape))
            chunk = np.full(chunk_shape, fill, dtype=values.dtype)
            part = values[sl]
            chunk[tuple(slice(0, s) for s in part.shape)] = part
            back = np.asarray(codec.decode(codec.encode(chunk))).view(values.dtype).reshape(chunk_shape)
            decoded[sl] = back[tuple(slice(0, s) for s in part.shape)]
        write(key, values, chunk_shape, [numcodecs_entry(codec)],
              lambda chunk: np.asarray(codec.encode(chunk)), fill, decoded, big_endian)

    numcodecs_array("numcodecs_delta_i4", rng.integers(-2**31, 2**31, (5, 7), dtype="<i4"), (2, 3), Delta(dtype="<i4"))
    numcodecs_array("numcodecs_delta_i2_as_i1", (np.arange(30, dtype="<i2") * 7 - 100).reshape(5, 6), (2, 4), Delta(dtype="<i2", astype="<i1"))
    numcodecs_array("numcodecs_delta_be_i8", edge_ints("<i8", rng, 10).astype(">i8"), (4,), Delta(dtype=">i8"), big_endian=True)
    numcodecs_array("numcodecs_fixedscaleoffset_f8_u2", rng.random((6, 5)) * 60 - 10, (4, 4), FixedScaleOffset(offset=-10, scale=1000, dtype="<f8", astype="<u2"), fill=-10.0)
    numcodecs_array("numcodecs_fixedscaleoffset_f4_u2", np.array([293.92, 250.0, 250.005, 905.35, 250.015, 300.0], dtype="<f4"), (4,), FixedScaleOffset(offset=250, scale=100, dtype="<f4", astype="<u2"), fill=250.0)
    numcodecs_array("numcodecs_quantize_f4", edge_floats("<f4", rng, 20), (9,), Quantize(digits=2, dtype="<f4"))
    numcodecs_array("numcodecs_quantize_f8_as_f4", edge_floats("<f8", rng, 20), (9,), Quantize(digits=4, dtype="<f8", astype="<f4"))
    numcodecs_array("numcodecs_astype_f8_as_f4", edge_floats("<f8", rng, 20), (9,), AsType(encode_dtype="<f4", decode_dtype="<f8"))
    numcodecs_array("numcodecs_bitround_f8", edge_floats("<f8", rng, 20), (9,), BitRound(keepbits=30))

    # bitround under its v3 name: floats as numcodecs, integers from the MSB.
    floats = edge_floats("<f4", rng, 30)
    rounded = np.asarray(BitRound(keepbits=7).encode(floats.copy())).view("<f4")
    write("bitround_f4", floats, (8,), [{"name": "bitround", "configuration": {"keepbits": 7}}],
          lambda chunk: np.asarray(BitRound(keepbits=7).encode(chunk.copy())).view("<f4"), 0.0, rounded)
    for dtype, keepbits in [("<u2", 3), ("<i4", 5), ("<i8", 9), ("|u1", 2)]:
        ints = edge_ints(dtype, rng, 25)
        write(f"bitround_{np.dtype(dtype).name}", ints, (7,), [{"name": "bitround", "configuration": {"keepbits": keepbits}}],
              lambda chunk, k=keepbits: bitround_ints(chunk, k), 0, bitround_ints(ints, keepbits))

    # reshape: the chunk's C-order elements under another shape.
    cube = rng.integers(0, 1000, (6, 8, 4), dtype="<u2")
    write("reshape_groups", cube, (3, 4, 4), [{"name": "reshape", "configuration": {"shape": [[0, 1], -1]}}],
          lambda chunk: chunk.reshape(12, 4), 0)
    write("reshape_flat", cube.astype("<f4"), (3, 4, 4), [{"name": "reshape", "configuration": {"shape": [-1]}}],
          lambda chunk: chunk.reshape(-1), 0.0)
    write("reshape_sizes", cube.astype("<i8"), (3, 4, 4), [{"name": "reshape", "configuration": {"shape": [2, 2, 3, [2]]}}],
          lambda chunk: chunk.reshape(2, 2, 3, 4), 0)
    # transpose, then reshape of the transposed chunk (axes 2, 0, 1: 4 x 3 x 4).
    write("transpose_reshape", cube.astype("<i4"), (3, 4, 4),
          [{"name": "transpose", "configuration": {"order": [2, 0, 1]}}, {"name": "reshape", "configuration": {"shape": [[0], [1, 2]]}}],
          lambda chunk: chunk.transpose(2, 0, 1).reshape(4, 12), 0)
    # reshape, then delta on the reshaped chunk.
    write("reshape_delta", cube.astype("<i4"), (3, 4, 4),
          [{"name": "reshape", "configuration": {"shape": [-1, 4]}}, numcodecs_entry(Delta(dtype="<i4"))],
          lambda chunk: np.asarray(Delta(dtype="<i4").encode(chunk.reshape(-1, 4))), 0)
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


READMES = {
    "v2-numcodecs-filters.zarr": """Zarr v2 arrays with numcodecs' filters (Delta, FixedScaleOffset, Quantize,
BitRound, AsType, Shuffle after Delta; edge cases and random
configurations), written by Debian's zarr-python
2.13.6 / numcodecs 0.11.0 / numpy 1.24.2 with scripts/make-filter-fixtures.py.
expected.json: per array, what zarr-python reads back (little-endian hex) and
the values written (input_hex). casts.json: numpy's astype of edge values on
x86-64 and Quantize's bits per digits, for the package's numpy helpers.
""",
    "v3-array-to-array.zarr": """Zarr v3 arrays with the numcodecs.* array -> array codecs (chunks encoded by
numcodecs 0.11.0 itself, laid out as zarr-python 3 writes them) and the
zarr-extensions `bitround` (integers from the page, as zarrs rounds them)
and `reshape` codecs, written by the numpy reference in
scripts/make-filter-fixtures.py. expected.json: per array, the values a
reader gives (little-endian hex) and the values written (input_hex).
""",
}


if __name__ == "__main__":
    write_v2("v2-numcodecs-filters.zarr")
    write_v3("v3-array-to-array.zarr")
    for store, text in READMES.items():
        (HERE / store / "README.md").write_text(text)
    print("zarr", zarr.__version__, "numpy", np.__version__, "wrote", HERE)
