#!/usr/bin/python3
"""Writes the compressed fixture stores: Zarr v2, Zarr v3 and N5 arrays whose
chunks other implementations compressed, for the tests of zstd, gzip, zlib,
lz4 and blosc through zarrita (tests/js/zarrita/compressed-stores.test.js,
tests/js/read/read-compressed.test.js).

Run with Debian's python3 (python3-zarr 2.13.6, python3-numcodecs 0.11.0,
numpy 1.24) and Debian's libzstd 1.5.4:

    /usr/bin/python3 scripts/make-compressed-stores.py

The stores are committed; this script is how they were made, not a test
step. Running it twice gives byte-identical stores (seeded values; the
mtime Python's gzip stamps into each gzip header is zeroed afterwards).
Every array is 2-d, shape (20, 30) in chunks of (12, 24) (zarr-python's
view), so each has four chunks, three of them partial edge chunks.

tests/fixtures/v2-compressed.zarr, written by zarr-python 2 (create_dataset,
then z[...] = values; dimension separator "."):
  zstd_l1_u2, zstd_l9_i4, zstd_l22_c8, zstd_lneg5_f8   numcodecs Zstd levels
  zstd_checksum_u2   the .zarray of Zstd(level=3), its chunks rewritten by
                     libzstd with a content checksum (ZSTD_c_checksumFlag, as
                     numcodecs >= 0.13's Zstd(checksum=True) writes them;
                     numcodecs 0.11 has no checksum option)
  gzip_l1_i4, gzip_l9_c16, zlib_l1_f8, zlib_l9_u2, zlib_default_f4   GZip, Zlib
  lz4_a1_u2, lz4_a10_f4, lz4_records   numcodecs LZ4
  blosc_<cname>_<shuffle>_u2   every cname (blosclz, lz4, lz4hc, zlib, zstd)
                     x every shuffle (noshuffle, shuffle, bitshuffle), uint16
                     (typesize 2)
  blosc_lz4_bitshuffle_u1, blosc_zstd_shuffle_i4, blosc_blosclz_shuffle_f8,
  blosc_zlib_shuffle_c16, blosc_lz4hc_shuffle_records (typesize 7)
                     other typesizes
  blosc_zstd_blocks_i4   blocksize 256: several blocks per chunk
  blosc_lz4_memcpyed_noise_u2   random bytes: c-blosc stores the frames
                     memcpyed (incompressible)
  blosc_clevel0_u2   clevel 0: memcpyed as well
  big_endian_blosc_u2, big_endian_zstd_f8   ">u2" and ">f8"
  order_f_zlib_i4    order "F"
  missing chunks: gzip_l1_i4, zlib_l1_f8, blosc_lz4_shuffle_u2 and
  lz4_a1_u2 have chunk 1.1 deleted (they read as their fill: 7, 0.5, 3, 0)

tests/fixtures/v3-compressed.zarr, Zarr v3 as zarr-python 3 writes it.
zarr-python 3 is not installable here (Debian has zarr 2.13.6), so the
documents are written literally from its source, zarr-python at commit
d44f9f92ab4f12a8008de2553a7c9988669e3910 (2026-08-22), read, not copied:
  - src/zarr/core/metadata/v3.py ArrayV3Metadata.to_dict: shape, data_type,
    chunk_grid, chunk_key_encoding ({"name": "default", "configuration":
    {"separator": "/"}}), fill_value, codecs, attributes, zarr_format,
    node_type, storage_transformers, in that order;
  - src/zarr/codecs/bytes.py: {"name": "bytes", "configuration": {"endian":
    "little"}}, and {"name": "bytes"} for one-byte types;
  - src/zarr/codecs/zstd.py: {"name": "zstd", "configuration": {"level": l,
    "checksum": c}} (numcodecs' Zstd(level, checksum) underneath);
  - src/zarr/codecs/gzip.py: {"name": "gzip", "configuration": {"level": l}}
    (numcodecs' GZip);
  - src/zarr/codecs/blosc.py: {"name": "blosc", "configuration": {"typesize",
    "cname", "clevel", "shuffle": "noshuffle" | "shuffle" | "bitshuffle",
    "blocksize"}}; it encodes with numcodecs' Blosc and, with numcodecs >=
    0.16, passes typesize on; with older numcodecs it encodes the chunk's
    bytes as uint8, so its frames say typesize 1 whatever the
    configuration: blosc_typesize1_frames_i4 is such an array;
  - src/zarr/codecs/numcodecs/_codecs.py: numcodecs codecs as
    {"name": "numcodecs.<id>", "configuration": {...without "id"}}
    (numcodecs.zlib, numcodecs.lz4);
  - src/zarr/codecs/crc32c_.py: {"name": "crc32c"}, the checksum after the
    bytes, little-endian;
  - src/zarr/codecs/sharding.py: chunk_shape, codecs, index_codecs (bytes
    little + crc32c), index_location "end" or "start" (offsets count the
    index then), a missing inner chunk as 2^64 - 1 twice.
  Chunks are whole chunks padded with the fill value, as zarr-python writes
  them, compressed by numcodecs 0.11 (Zstd, GZip, Blosc, Zlib, LZ4) and, for
  zstd with a checksum, by libzstd (as numcodecs >= 0.13 does). Arrays:
  zstd_l0_u2, zstd_checksum_i4, gzip_l5_f8 (chunk c/1/1 missing, fill 0.5),
  blosc_<cname>_<shuffle>_u2 (all 15), blosc_zstd_blocks_f4 (blocksize 256),
  blosc_typesize1_frames_i4, numcodecs_zlib_i4, numcodecs_lz4_u2,
  zstd_crc32c_u2 ([bytes, zstd, crc32c]), sharded_zstd_end_u2 (shards of
  (12, 24), inner chunks (6, 8), some missing), sharded_blosc_start_f4,
  sharded_gzip_crc32c_end_i4 (inner [bytes, gzip, crc32c]),
  packbits_zstd_u2 (12-bit values, packbits last_bit 11, then zstd; the
  packbits page of zarr-extensions, which zarr-python 3 does not write),
  big_endian_blosc_i4 (bytes endian big, blosc shuffle typesize 4),
  int4_zstd and float8_e4m3_blosc (types withDataTypes presents; one byte
  per value through bytes, as zarr-extensions defines), complex128_gzip.

tests/fixtures/n5-compressed.n5, written by zarr-python 2's N5Store: uint16
arrays gzip (GZip level 5; block 1/1 deleted), zlib (Zlib: N5's gzip with
"useZlib": true), zstd (numcodecs' Zstd: N5Store keeps its "id"), blosc_<cname>_<shuffle>
(every cname and shuffle), blosc_zstd_i4, blosc_lz4_f8; lz4_refused:
N5Store writes numcodecs' LZ4 as {"type": "lz4", "acceleration": 1} with
numcodecs' framing, which is not N5's lz4 (Java's LZ4BlockOutputStream):
withN5 refuses it.

expected.json (v2, v3): per array "dtype" (the metadata's: a dtype string,
a v2 record descr, or a v3 data type name), "shape", "chunks", "codecs" (a
short description), "missing" (chunk keys not stored), "fill", and
"little_endian_hex": the values zarr-python reads back (v2) or numpy's
(v3, missing chunks set to the fill), in C order, every field of a record
and each part of a complex little-endian; int4 sign-extended to int8;
float8_e4m3 as its codes. N5: as tests/fixtures/n5-store.n5/expected.json
(scripts/make-n5-fixtures.py): "le_hex" in N5's axis order, "numpy_le_hex"
and "numpy_shape" in zarr-python's.
"""
import ctypes
import json
import pathlib
import shutil
import struct
import sys
import warnings

import numcodecs
import numpy as np
import zarr
from numcodecs import LZ4, Blosc, GZip, Zlib, Zstd
from zarr.n5 import N5Store

# No __pycache__ left in scripts/ by the import beside this script.
sys.dont_write_bytecode = True
from crc32c_reference import crc32c  # noqa: E402
from packbits_reference import packbits  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"
SHAPE, CHUNKS = (20, 30), (12, 24)
CNAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"]
SHUFFLES = {"noshuffle": Blosc.NOSHUFFLE, "shuffle": Blosc.SHUFFLE, "bitshuffle": Blosc.BITSHUFFLE}
RECORD = np.dtype([("x", "<f4"), ("n", ">i2"), ("t", "u1")])  # 7 bytes
MAX_U64 = 2**64 - 1

# ---- libzstd with a content checksum ---------------------------------------------------

_zstd = ctypes.CDLL("libzstd.so.1")
_zstd.ZSTD_createCCtx.restype = ctypes.c_void_p
_zstd.ZSTD_CCtx_setParameter.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
_zstd.ZSTD_CCtx_setParameter.restype = ctypes.c_size_t
_zstd.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
_zstd.ZSTD_compressBound.restype = ctypes.c_size_t
_zstd.ZSTD_compress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
_zstd.ZSTD_compress2.restype = ctypes.c_size_t
_zstd.ZSTD_isError.argtypes = [ctypes.c_size_t]
_zstd.ZSTD_freeCCtx.argtypes = [ctypes.c_void_p]


def zstd_checksummed(data, level):
    """A zstd frame with its content size and a content checksum, as
    numcodecs >= 0.13's Zstd(level, checksum=True) writes it (ZSTD_compress2
    with ZSTD_c_compressionLevel (100) and ZSTD_c_checksumFlag (201))."""
    cctx = _zstd.ZSTD_createCCtx()
    try:
        assert not _zstd.ZSTD_isError(_zstd.ZSTD_CCtx_setParameter(cctx, 100, level))
        assert not _zstd.ZSTD_isError(_zstd.ZSTD_CCtx_setParameter(cctx, 201, 1))
        bound = _zstd.ZSTD_compressBound(len(data))
        dst = ctypes.create_string_buffer(bound)
        n = _zstd.ZSTD_compress2(cctx, dst, bound, bytes(data), len(data))
        assert not _zstd.ZSTD_isError(n)
        frame = dst.raw[:n]
    finally:
        _zstd.ZSTD_freeCCtx(cctx)
    assert frame[4] & 0x04, "no checksum flag"
    return frame


assert crc32c(b"123456789") == 0xE3069283  # the check value of CRC-32C

# ---- values ----------------------------------------------------------------------------


def image(shape, seed):
    """Microscopy-like 12-bit values: a smooth background with Poisson noise."""
    rng = np.random.default_rng(seed)
    y, x = np.indices(shape)
    base = 600 + 400 * np.sin(x / 7.0) * np.cos(y / 5.0) + 3 * x
    return rng.poisson(np.clip(base, 1, None)).astype(np.int64) & 0xFFF


def values_for(dtype, seed, shape=SHAPE):
    """Compressible values of `dtype`, with the type's extremes in the corners."""
    dt = np.dtype(dtype)
    img = image(shape, seed)
    if dt.fields is not None:
        out = np.zeros(shape, dtype=dt)
        out["x"] = img / 7.0
        out["n"] = img - 2048
        out["t"] = img & 0xFF
        return out
    if dt.kind == "c":
        out = (img / 7.0 - 1j * img / 3.0).astype(dt)
        out.flat[0] = complex(-0.0, np.inf)
        out.flat[-1] = complex(np.nan, 1e30)
        return out
    if dt.kind == "f":
        out = (img / 7.0).astype(dt)
        out.flat[:4] = [np.nan, -0.0, np.inf, -np.inf]
        out.flat[-1] = np.finfo(dt).max
        return out
    info = np.iinfo(dt)
    out = (img - (2048 if info.min < 0 else 0)).astype(dt)
    out.flat[0], out.flat[1], out.flat[-1] = info.min, info.max, info.max
    return out


def noise(shape, dtype, seed):
    return np.random.default_rng(seed).integers(0, 2**16, shape).astype(dtype)


def little(values):
    """Little-endian bytes in C order: each record field, each complex part."""
    dt = values.dtype
    if dt.fields is not None:
        ldt = np.dtype([(n, dt[n].newbyteorder("<")) for n in dt.names])
    else:
        ldt = dt.newbyteorder("<")
    return np.ascontiguousarray(values).astype(ldt).tobytes(order="C").hex()


def chunk_regions(shape=SHAPE, chunks=CHUNKS):
    grid = [-(-s // c) for s, c in zip(shape, chunks)]
    for coords in np.ndindex(*grid):
        yield coords, tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(coords, chunks, shape))


def zero_gzip_mtimes(path, header_bytes=0):
    """Python's gzip stamps the current time into each member: zeroed, so
    that the fixtures are reproducible (gzip's CRC does not cover it)."""
    for f in sorted(path.rglob("*")):
        if not f.is_file() or f.name.startswith(".") or f.suffix == ".json" or f.name == "attributes.json":
            continue
        data = bytearray(f.read_bytes())
        h = header_bytes(data) if callable(header_bytes) else header_bytes
        if data[h:h + 3] == b"\x1f\x8b\x08":
            data[h + 4:h + 8] = b"\0\0\0\0"
            f.write_bytes(bytes(data))


# ---- Zarr v2, by zarr-python 2 ---------------------------------------------------------


def v2_arrays():
    """name -> (dtype, compressor, extra create_dataset kwargs, missing chunk keys, fill)"""
    a = {
        "zstd_l1_u2": ("<u2", Zstd(level=1)),
        "zstd_l9_i4": ("<i4", Zstd(level=9)),
        "zstd_l22_c8": ("<c8", Zstd(level=22)),
        "zstd_lneg5_f8": ("<f8", Zstd(level=-5)),
        "zstd_checksum_u2": ("<u2", Zstd(level=3)),
        "gzip_l1_i4": ("<i4", GZip(level=1), {}, ["1.1"], 7),
        "gzip_l9_c16": ("<c16", GZip(level=9)),
        "zlib_l1_f8": ("<f8", Zlib(level=1), {}, ["1.1"], 0.5),
        "zlib_l9_u2": ("<u2", Zlib(level=9)),
        "zlib_default_f4": ("<f4", Zlib(level=-1)),
        "lz4_a1_u2": ("<u2", LZ4(acceleration=1), {}, ["1.1"], 0),
        "lz4_a10_f4": ("<f4", LZ4(acceleration=10)),
        "lz4_records": (RECORD, LZ4()),
    }
    for cname in CNAMES:
        for sname, shuffle in SHUFFLES.items():
            missing = (["1.1"], 3) if (cname, sname) == ("lz4", "shuffle") else ([], 0)
            a[f"blosc_{cname}_{sname}_u2"] = ("<u2", Blosc(cname=cname, clevel=5, shuffle=shuffle), {}, *missing)
    a.update({
        "blosc_lz4_bitshuffle_u1": ("|u1", Blosc(cname="lz4", clevel=5, shuffle=Blosc.BITSHUFFLE)),
        "blosc_zstd_shuffle_i4": ("<i4", Blosc(cname="zstd", clevel=5, shuffle=Blosc.SHUFFLE)),
        "blosc_blosclz_shuffle_f8": ("<f8", Blosc(cname="blosclz", clevel=9, shuffle=Blosc.SHUFFLE)),
        "blosc_zlib_shuffle_c16": ("<c16", Blosc(cname="zlib", clevel=5, shuffle=Blosc.SHUFFLE)),
        "blosc_lz4hc_shuffle_records": (RECORD, Blosc(cname="lz4hc", clevel=5, shuffle=Blosc.SHUFFLE)),
        "blosc_zstd_blocks_i4": ("<i4", Blosc(cname="zstd", clevel=5, shuffle=Blosc.SHUFFLE, blocksize=256)),
        "blosc_lz4_memcpyed_noise_u2": ("<u2", Blosc(cname="lz4", clevel=5, shuffle=Blosc.NOSHUFFLE)),
        "blosc_clevel0_u2": ("<u2", Blosc(cname="lz4", clevel=0, shuffle=Blosc.SHUFFLE)),
        "big_endian_blosc_u2": (">u2", Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE)),
        "big_endian_zstd_f8": (">f8", Zstd(level=3)),
        "order_f_zlib_i4": ("<i4", Zlib(level=5), {"order": "F"}),
    })
    return {k: (v + ({}, [], 0)[len(v) - 2:]) for k, v in a.items()}


def write_v2(name):
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(str(path), mode="w")
    expected = {}
    for seed, (key, (dtype, compressor, kwargs, missing, fill)) in enumerate(v2_arrays().items()):
        dt = np.dtype(dtype)
        values = noise(SHAPE, dt, seed) if "noise" in key else values_for(dt, seed)
        z = root.create_dataset(key, shape=SHAPE, chunks=CHUNKS, dtype=dt, compressor=compressor,
                                fill_value=None if dt.fields is not None else fill, **kwargs)
        z[...] = values
        if key == "zstd_checksum_u2":
            # Each chunk again, with a content checksum (numcodecs 0.11 has
            # no checksum option; its Zstd decodes these frames).
            for coords, region in chunk_regions():
                chunk = np.zeros(CHUNKS, dtype=dt)
                part = values[region]
                chunk[:part.shape[0], :part.shape[1]] = part
                (path / key / ".".join(map(str, coords))).write_bytes(zstd_checksummed(chunk.tobytes(), 3))
        for k in missing:
            (path / key / k).unlink()
        back = zarr.open_array(str(path / key), mode="r")[...]
        # memcpyed frames: every chunk at clevel 0; the noise's whole chunk
        # (its edge chunks are padded with zeros, which compress).
        for f in [path / key / "0.0"] if "memcpyed" in key else (path / key).iterdir() if "clevel0" in key else []:
            if not f.name.startswith("."):
                assert f.read_bytes()[2] & 0x02, (key, f.name, "not memcpyed")
        expected[key] = {
            "dtype": dt.str if dt.fields is None else dt.descr,
            "shape": list(SHAPE), "chunks": list(CHUNKS), "order": z.order,
            "codecs": json.dumps(compressor.get_config(), sort_keys=True),
            "missing": list(missing), "fill": fill,
            "little_endian_hex": little(back),
        }
        if not missing:
            assert back.tobytes() == values.tobytes(), key
    zero_gzip_mtimes(path)
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    return expected


# ---- Zarr v3, in zarr-python 3's format ------------------------------------------------


def bytes_codec(dt, endian="little"):
    return {"name": "bytes"} if dt.itemsize == 1 else {"name": "bytes", "configuration": {"endian": endian}}


def blosc_codec(cname, shuffle, typesize, clevel=5, blocksize=0):
    return {"name": "blosc", "configuration": {"typesize": typesize, "cname": cname, "clevel": clevel,
                                              "shuffle": shuffle, "blocksize": blocksize}}


def encode_bytes_to_bytes(codec, raw, itemsize, frame_typesize=None):
    name, conf = codec["name"], codec.get("configuration", {})
    if name == "zstd":
        return zstd_checksummed(raw, conf["level"]) if conf["checksum"] else bytes(Zstd(level=conf["level"]).encode(raw))
    if name == "gzip":
        frame = bytearray(GZip(level=conf["level"]).encode(raw))
        frame[4:8] = b"\0\0\0\0"  # the mtime Python's gzip stamps (a checksum may follow)
        return bytes(frame)
    if name == "numcodecs.zlib":
        return bytes(Zlib(level=conf["level"]).encode(raw))
    if name == "numcodecs.lz4":
        return bytes(LZ4(acceleration=conf["acceleration"]).encode(raw))
    if name == "blosc":
        ts = frame_typesize or conf["typesize"]
        view = np.frombuffer(raw, dtype="u1") if ts == 1 else np.frombuffer(raw, dtype=np.dtype((np.void, ts)))
        codec = Blosc(cname=conf["cname"], clevel=conf["clevel"], shuffle=SHUFFLES[conf["shuffle"]], blocksize=conf["blocksize"])
        frame = bytes(codec.encode(view))
        assert frame[3] == ts, (frame[3], ts)
        return frame
    if name == "crc32c":
        return raw + struct.pack("<I", crc32c(raw))
    raise ValueError(name)


def encode_chunk(chunk, dt, chain, frame_typesize=None):
    raw = None
    for codec in chain:
        if codec["name"] == "bytes":
            endian = codec.get("configuration", {}).get("endian", "little")
            raw = chunk.astype(dt.newbyteorder("<" if endian == "little" else ">")).tobytes(order="C")
        elif codec["name"] == "packbits":
            raw = packbits(chunk, codec["configuration"]["last_bit"] + 1)
        else:
            raw = encode_bytes_to_bytes(codec, raw, dt.itemsize, frame_typesize)
    return raw


def v3_arrays():
    """name -> spec: dtype (numpy's stored form), data_type (v3 name), chain,
    and optionally fill, missing, sharding, frame_typesize, values (a function)."""
    u2, i4, f4, f8 = (np.dtype(t) for t in ("<u2", "<i4", "<f4", "<f8"))
    zstd = lambda level=0, checksum=False: {"name": "zstd", "configuration": {"level": level, "checksum": checksum}}
    a = {
        "zstd_l0_u2": dict(dtype=u2, chain=[bytes_codec(u2), zstd()]),
        "zstd_checksum_i4": dict(dtype=i4, chain=[bytes_codec(i4), zstd(5, True)]),
        "gzip_l5_f8": dict(dtype=f8, chain=[bytes_codec(f8), {"name": "gzip", "configuration": {"level": 5}}],
                           missing=[(1, 1)], fill=0.5),
    }
    for cname in CNAMES:
        for sname in SHUFFLES:
            a[f"blosc_{cname}_{sname}_u2"] = dict(dtype=u2, chain=[bytes_codec(u2), blosc_codec(cname, sname, 2)])
    a.update({
        "blosc_zstd_blocks_f4": dict(dtype=f4, chain=[bytes_codec(f4), blosc_codec("zstd", "bitshuffle", 4, blocksize=256)]),
        "blosc_typesize1_frames_i4": dict(dtype=i4, chain=[bytes_codec(i4), blosc_codec("lz4", "shuffle", 4)], frame_typesize=1),
        "numcodecs_zlib_i4": dict(dtype=i4, chain=[bytes_codec(i4), {"name": "numcodecs.zlib", "configuration": {"level": 1}}]),
        "numcodecs_lz4_u2": dict(dtype=u2, chain=[bytes_codec(u2), {"name": "numcodecs.lz4", "configuration": {"acceleration": 1}}]),
        "zstd_crc32c_u2": dict(dtype=u2, chain=[bytes_codec(u2), zstd(3), {"name": "crc32c"}], missing=[(0, 1)], fill=9),
        "sharded_zstd_end_u2": dict(dtype=u2, chain=[bytes_codec(u2), zstd(3)],
                                    sharding=dict(inner=(6, 8), location="end", drop=[(0, 1), (3, 2)]), fill=5),
        "sharded_blosc_start_f4": dict(dtype=f4, chain=[bytes_codec(f4), blosc_codec("lz4", "shuffle", 4)],
                                       sharding=dict(inner=(6, 8), location="start", drop=[(1, 0)]), fill=-1.5),
        "sharded_gzip_crc32c_end_i4": dict(dtype=i4, chain=[bytes_codec(i4), {"name": "gzip", "configuration": {"level": 1}}, {"name": "crc32c"}],
                                           sharding=dict(inner=(4, 12), location="end", drop=[]), fill=0),
        "packbits_zstd_u2": dict(dtype=u2, chain=[{"name": "packbits", "configuration": {"padding_encoding": "none", "last_bit": 11}}, zstd(3)],
                                 values=lambda seed: image(SHAPE, seed).astype(u2)),
        "big_endian_blosc_i4": dict(dtype=i4, chain=[bytes_codec(i4, "big"), blosc_codec("lz4", "shuffle", 4)]),
        "int4_zstd": dict(dtype=np.dtype("i1"), data_type="int4", chain=[{"name": "bytes"}, zstd(3)], fill=-2, missing=[(1, 0)],
                          values=lambda seed: (image(SHAPE, seed) % 16 - 8).astype("i1")),
        "float8_e4m3_blosc": dict(dtype=np.dtype("u1"), data_type="float8_e4m3", chain=[{"name": "bytes"}, blosc_codec("zstd", "bitshuffle", 1)],
                                  values=lambda seed: (image(SHAPE, seed) & 0x7F).astype("u1") | np.where(image(SHAPE, seed + 1) & 1, 0x80, 0).astype("u1")),
        "complex128_gzip": dict(dtype=np.dtype("<c16"), chain=[bytes_codec(np.dtype("<c16")), {"name": "gzip", "configuration": {"level": 6}}]),
    })
    return a


def v3_name(dt):
    return {"u1": "uint8", "u2": "uint16", "i4": "int32", "f4": "float32", "f8": "float64", "c16": "complex128", "i1": "int8"}[dt.str[1:]]


def shard_blob(shard, dt, chain, inner, location, drop, shard_coords):
    """A shard: its inner chunks in C order, the index (offset, nbytes) as
    little-endian uint64 pairs, then its crc32c; at the end or at the start."""
    per = [s // i for s, i in zip(CHUNKS, inner)]
    n = int(np.prod(per))
    index_size = 16 * n + 4
    offsets = np.full(tuple(per) + (2,), MAX_U64, dtype="<u8")
    at = index_size if location == "start" else 0
    body = []
    for ic in np.ndindex(*per):
        origin = [sc * c + i * k for sc, c, i, k in zip(shard_coords, CHUNKS, ic, inner)]
        global_ic = tuple(o // k for o, k in zip(origin, inner))
        if any(o >= s for o, s in zip(origin, SHAPE)) or global_ic in drop:
            continue  # outside the array (all fill), or left out
        sub = shard[tuple(slice(i * k, (i + 1) * k) for i, k in zip(ic, inner))]
        data = encode_chunk(sub, dt, chain)
        offsets[ic] = (at, len(data))
        body.append(data)
        at += len(data)
    index = offsets.tobytes(order="C")
    index += struct.pack("<I", crc32c(index))
    return index + b"".join(body) if location == "start" else b"".join(body) + index


def write_v3(name):
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    (path / "zarr.json").write_text(json.dumps({"attributes": {}, "zarr_format": 3, "node_type": "group"}, indent=2))
    expected = {}
    for seed, (key, spec) in enumerate(v3_arrays().items(), start=100):
        dt = spec["dtype"]
        values = spec["values"](seed) if "values" in spec else values_for(dt, seed)
        fill = spec.get("fill", 0)
        sharding = spec.get("sharding")
        missing = [tuple(m) for m in spec.get("missing", [])]
        ref = values.copy()
        (path / key).mkdir()
        for coords, region in chunk_regions():
            chunk = np.full(CHUNKS, fill, dtype=dt)
            part = values[region]
            chunk[:part.shape[0], :part.shape[1]] = part
            target = path / key / "c" / str(coords[0]) / str(coords[1])
            if tuple(coords) in missing:
                ref[region] = fill
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if sharding:
                inner = sharding["inner"]
                for ic in sharding["drop"]:
                    ref[tuple(slice(i * k, (i + 1) * k) for i, k in zip(ic, inner))] = fill
                target.write_bytes(shard_blob(chunk, dt, spec["chain"], inner, sharding["location"], sharding["drop"], coords))
            else:
                target.write_bytes(encode_chunk(chunk, dt, spec["chain"], spec.get("frame_typesize")))
        codecs = spec["chain"]
        if sharding:
            codecs = [{"name": "sharding_indexed", "configuration": {
                "chunk_shape": list(sharding["inner"]), "codecs": spec["chain"],
                "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                "index_location": sharding["location"]}}]
        data_type = spec.get("data_type") or v3_name(dt)
        fill_json = [fill, 0] if dt.kind == "c" else fill
        doc = {
            "shape": list(SHAPE), "data_type": data_type,
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(CHUNKS)}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "fill_value": fill_json, "codecs": codecs, "attributes": {},
            "zarr_format": 3, "node_type": "array", "storage_transformers": [],
        }
        (path / key / "zarr.json").write_text(json.dumps(doc, indent=2))
        expected[key] = {
            "dtype": data_type, "shape": list(SHAPE), "chunks": list(CHUNKS),
            "codecs": json.dumps(codecs), "missing": ["c/%d/%d" % m for m in missing], "fill": fill,
            "little_endian_hex": little(ref),
        }
        if sharding:
            expected[key]["inner_missing"] = ["%d/%d" % m for m in sharding["drop"]]
        check_v3(path / key, doc, ref)
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    return expected


def check_v3(array_dir, doc, ref):
    """Reads the array back with numcodecs alone (a check of this script)."""
    codecs = doc["codecs"]
    sharding = codecs[0]["configuration"] if codecs[0]["name"] == "sharding_indexed" else None
    chain = sharding["codecs"] if sharding else codecs
    for coords, region in chunk_regions():
        f = array_dir / "c" / str(coords[0]) / str(coords[1])
        if not f.exists():
            continue
        blob = f.read_bytes()
        if sharding:
            continue  # the shard layout is checked by the tests' readers
        raw = blob
        for codec in reversed(chain):
            name = codec["name"]
            if name == "crc32c":
                assert struct.unpack("<I", raw[-4:])[0] == crc32c(raw[:-4])
                raw = raw[:-4]
            elif name in ("zstd",):
                raw = bytes(Zstd().decode(raw))
            elif name == "gzip":
                raw = bytes(GZip().decode(raw))
            elif name == "numcodecs.zlib":
                raw = bytes(Zlib().decode(raw))
            elif name == "numcodecs.lz4":
                raw = bytes(LZ4().decode(raw))
            elif name == "blosc":
                raw = bytes(Blosc().decode(raw))
            elif name == "bytes":
                endian = codec.get("configuration", {}).get("endian", "little")
                dt = ref.dtype.newbyteorder("<" if endian == "little" else ">")
                got = np.frombuffer(raw, dtype=dt).reshape(CHUNKS)
                part = ref[region]
                assert got[:part.shape[0], :part.shape[1]].tobytes() == part.astype(dt).tobytes(), (array_dir.name, coords)


# ---- N5, by zarr-python 2's N5Store ---------------------------------------------------


def write_n5(name):
    path = HERE / name
    shutil.rmtree(path, ignore_errors=True)
    store = N5Store(str(path))
    root = zarr.open_group(store=store, mode="w")
    arrays = {
        "gzip": ("uint16", GZip(level=5)),
        "zlib": ("uint16", Zlib(level=5)),
        "zstd": ("uint16", Zstd(level=3)),
        "blosc_zstd_i4": ("int32", Blosc(cname="zstd", clevel=5, shuffle=Blosc.BITSHUFFLE)),
        "blosc_lz4_f8": ("float64", Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE)),
    }
    for cname in CNAMES:
        for sname, shuffle in SHUFFLES.items():
            arrays[f"blosc_{cname}_{sname}"] = ("uint16", Blosc(cname=cname, clevel=5, shuffle=shuffle))
    arrays["lz4_refused"] = ("uint16", LZ4())
    missing = {"gzip": ["1/1"]}
    written = {}
    for seed, (key, (dtype, compressor)) in enumerate(arrays.items(), start=200):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # "Not all N5 implementations support blosc"
            z = root.create_dataset(key, shape=SHAPE, chunks=CHUNKS, dtype=dtype, compressor=compressor)
        values = values_for(np.dtype(dtype), seed)
        z[...] = values
        written[key] = values
    for key, blocks in missing.items():
        for b in blocks:
            (path / key / b).unlink()
    # Block files hold a header (mode, rank, dimensions) before the gzip member.
    zero_gzip_mtimes(path, lambda data: 4 + 4 * struct.unpack(">H", data[2:4])[0])
    store = N5Store(str(path))
    expected = {}
    for key in arrays:
        attrs = json.loads((path / key / "attributes.json").read_text())
        entry = {k: attrs[k] for k in ["dimensions", "blockSize", "dataType", "compression"]}
        if key == "lz4_refused":
            entry["refused"] = True
            expected[key] = entry
            continue
        values = zarr.open_array(store=store, path=key, mode="r")[...]
        want = written[key].copy()
        for b in missing.get(key, []):
            pos = [int(p) for p in b.split("/")][::-1]  # zarr-python's axis order
            want[tuple(slice(p * c, (p + 1) * c) for p, c in zip(pos, CHUNKS))] = 0
        assert values.tobytes() == want.tobytes(), key
        ours = np.ascontiguousarray(np.transpose(values))
        entry["le_hex"] = little(ours)
        entry["numpy_shape"] = list(values.shape)
        entry["numpy_le_hex"] = little(values)
        entry["missing_blocks"] = missing.get(key, [])
        expected[key] = entry
    (path / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    write_v2("v2-compressed.zarr")
    write_v3("v3-compressed.zarr")
    write_n5("n5-compressed.n5")
    print("zarr", zarr.__version__, "numcodecs", numcodecs.__version__, "wrote", HERE)
