#!/usr/bin/python3
"""The compressed-chunk fuzzer's reference (tests/fuzz/js/compressed.mjs): a
long-lived child process that compresses chunks with the C libraries
numcodecs and zarr-python use (Debian's numcodecs 0.11 over libzstd 1.5.4,
zlib, liblz4 1.9.4 and libblosc 1.21.3; libzstd directly for frames with a
content checksum, as numcodecs >= 0.13 writes them) and decodes stored
chunks, damaged or not, to the size the metadata gives, with the same C
libraries called directly.

One JSON request per line on stdin, one answer per line on stdout:

    {"id": 1, "op": "encode", "items": [{"chain": [...], "raw": "<base64>", "typesize": 2}, ...]}
    {"id": 1, "stored": ["<base64>", ...]}
    {"id": 2, "op": "decode", "items": [{"chain": [...], "stored": "<base64>", "size": 4096}, ...]}
    {"id": 2, "results": [{"ok": "<base64>"} | {"error": "<why>"}, ...]}

A chain is the bytes -> bytes codecs in order, each {"name": "zstd",
"level", "checksum"} | {"name": "gzip", "level"} | {"name": "zlib",
"level"} | {"name": "lz4", "acceleration"} | {"name": "blosc", "cname",
"clevel", "shuffle" (0, 1, 2), "blocksize"} | {"name": "crc32c"}.

Decoding is exact: a chunk decodes to exactly `size` bytes or is refused
(the Zarr rule the package follows, docs/reliability.md), and nothing is
allocated from what a frame claims:
  - zstd: ZSTD_decompress into `size` bytes (every frame, skippable frames
    skipped, checksums checked); anything but exactly `size` is refused;
  - gzip: zlib's inflate (wbits 31) member after member, zero padding after
    a member allowed (as Python's gzip module reads it), output bounded to
    `size` + 1; CRC-32 and ISIZE checked by zlib;
  - zlib: zlib's inflate (wbits 15), bytes after the stream refused;
  - lz4: numcodecs' framing, its 4-byte little-endian size header must be
    `size`, then LZ4_decompress_safe into `size` bytes, all of them;
  - blosc: the header's nbytes must be `size` and its cbytes the frame's
    length (c-blosc 1's blosc_decompress would otherwise read cbytes bytes
    whatever the buffer holds), then blosc_decompress_ctx into `size` bytes;
  - crc32c: the last 4 bytes, little-endian, must be the CRC-32C of the rest.
A process that dies on a chunk (c-blosc on hostile data) is the fuzzer's to
count; it starts another.
"""
import base64
import ctypes
import json
import sys
import zlib

import numpy as np
from numcodecs import LZ4, Blosc, GZip, Zlib, Zstd

_zstd = ctypes.CDLL("libzstd.so.1")
for fn, res, args in [
    ("ZSTD_createCCtx", ctypes.c_void_p, []),
    ("ZSTD_freeCCtx", ctypes.c_size_t, [ctypes.c_void_p]),
    ("ZSTD_CCtx_setParameter", ctypes.c_size_t, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]),
    ("ZSTD_compressBound", ctypes.c_size_t, [ctypes.c_size_t]),
    ("ZSTD_compress2", ctypes.c_size_t, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]),
    ("ZSTD_decompress", ctypes.c_size_t, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]),
    ("ZSTD_isError", ctypes.c_uint, [ctypes.c_size_t]),
    ("ZSTD_getErrorName", ctypes.c_char_p, [ctypes.c_size_t]),
]:
    getattr(_zstd, fn).restype = res
    getattr(_zstd, fn).argtypes = args
_lz4 = ctypes.CDLL("liblz4.so.1")
_lz4.LZ4_decompress_safe.restype = ctypes.c_int
_lz4.LZ4_decompress_safe.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
_blosc = ctypes.CDLL("libblosc.so.1")
_blosc.blosc_decompress_ctx.restype = ctypes.c_int
_blosc.blosc_decompress_ctx.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]

_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82F63B78 if _c & 1 else _c >> 1
    _CRC_TABLE.append(_c)


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _CRC_TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


class Refused(Exception):
    pass


# ---- encoding --------------------------------------------------------------------------

def zstd_encode(raw, level, checksum):
    if not checksum:
        return bytes(Zstd(level=level).encode(raw))
    cctx = _zstd.ZSTD_createCCtx()
    try:
        _zstd.ZSTD_CCtx_setParameter(cctx, 100, level)  # ZSTD_c_compressionLevel
        _zstd.ZSTD_CCtx_setParameter(cctx, 201, 1)  # ZSTD_c_checksumFlag
        bound = _zstd.ZSTD_compressBound(len(raw))
        dst = ctypes.create_string_buffer(bound)
        n = _zstd.ZSTD_compress2(cctx, dst, bound, raw, len(raw))
        if _zstd.ZSTD_isError(n):
            raise ValueError(_zstd.ZSTD_getErrorName(n).decode())
        return dst.raw[:n]
    finally:
        _zstd.ZSTD_freeCCtx(cctx)


def encode(chain, raw, typesize):
    for c in chain:
        name = c["name"]
        if name == "zstd":
            raw = zstd_encode(raw, c["level"], c.get("checksum", False))
        elif name == "gzip":
            frame = bytearray(GZip(level=c["level"]).encode(raw))
            frame[4:8] = b"\0\0\0\0"  # no mtime: a run reproduces from its seed
            raw = bytes(frame)
        elif name == "zlib":
            raw = bytes(Zlib(level=c["level"]).encode(raw))
        elif name == "lz4":
            raw = bytes(LZ4(acceleration=c["acceleration"]).encode(raw))
        elif name == "blosc":
            view = np.frombuffer(raw, dtype=np.dtype((np.void, typesize))) if typesize > 1 and len(raw) % typesize == 0 else np.frombuffer(raw, dtype="u1")
            raw = bytes(Blosc(cname=c["cname"], clevel=c["clevel"], shuffle=c["shuffle"], blocksize=c["blocksize"]).encode(view))
        elif name == "crc32c":
            raw = raw + crc32c(raw).to_bytes(4, "little")
        else:
            raise ValueError(name)
    return raw


# ---- decoding, exactly -----------------------------------------------------------------

def zstd_decode(data, size):
    dst = ctypes.create_string_buffer(max(size, 1))
    r = _zstd.ZSTD_decompress(dst, size, data, len(data))
    if _zstd.ZSTD_isError(r):
        raise Refused("zstd: " + _zstd.ZSTD_getErrorName(r).decode())
    if r != size:
        raise Refused("zstd: %d bytes, expected %d" % (r, size))
    return dst.raw[:size]


def gzip_decode(data, size):
    out = b""
    rest = data
    while True:
        d = zlib.decompressobj(31)
        try:
            out += d.decompress(rest, size + 1 - len(out))
        except zlib.error as e:
            raise Refused("gzip: %s" % e)
        if len(out) > size:
            raise Refused("gzip: more than %d bytes" % size)
        if not d.eof:
            raise Refused("gzip: truncated")
        rest = d.unused_data.lstrip(b"\0")
        if not rest:
            break
    if len(out) != size:
        raise Refused("gzip: %d bytes, expected %d" % (len(out), size))
    return out


def zlib_decode(data, size):
    d = zlib.decompressobj(15)
    try:
        out = d.decompress(data, size + 1)
    except zlib.error as e:
        raise Refused("zlib: %s" % e)
    if len(out) > size:
        raise Refused("zlib: more than %d bytes" % size)
    if not d.eof:
        raise Refused("zlib: truncated")
    if d.unused_data:
        raise Refused("zlib: %d bytes after the stream" % len(d.unused_data))
    if len(out) != size:
        raise Refused("zlib: %d bytes, expected %d" % (len(out), size))
    return out


def lz4_decode(data, size):
    if len(data) < 5:
        raise Refused("lz4: %d bytes" % len(data))
    declared = int.from_bytes(data[:4], "little")
    if declared != size:
        raise Refused("lz4: the header says %d, expected %d" % (declared, size))
    dst = ctypes.create_string_buffer(max(size, 1))
    r = _lz4.LZ4_decompress_safe(data[4:], dst, len(data) - 4, size)
    if r != size:
        raise Refused("lz4: LZ4_decompress_safe gave %d, expected %d" % (r, size))
    return dst.raw[:size]


def blosc_decode(data, size):
    if len(data) < 16:
        raise Refused("blosc: %d bytes" % len(data))
    nbytes, cbytes = int.from_bytes(data[4:8], "little"), int.from_bytes(data[12:16], "little")
    if nbytes != size:
        raise Refused("blosc: nbytes %d, expected %d" % (nbytes, size))
    if cbytes != len(data):
        raise Refused("blosc: cbytes %d, the frame has %d" % (cbytes, len(data)))
    dst = ctypes.create_string_buffer(max(size, 1))
    r = _blosc.blosc_decompress_ctx(data, dst, size, 1)
    if r != size:
        raise Refused("blosc: blosc_decompress_ctx gave %d, expected %d" % (r, size))
    return dst.raw[:size]


DECODERS = {"zstd": zstd_decode, "gzip": gzip_decode, "zlib": zlib_decode, "lz4": lz4_decode, "blosc": blosc_decode}


def decode(chain, data, size):
    for c in reversed(chain):
        if c["name"] == "crc32c":
            if len(data) < 4:
                raise Refused("crc32c: %d bytes" % len(data))
            if int.from_bytes(data[-4:], "little") != crc32c(data[:-4]):
                raise Refused("crc32c: mismatch")
            data = data[:-4]
        else:
            data = DECODERS[c["name"]](data, size)
    if len(data) != size:
        raise Refused("%d bytes, expected %d" % (len(data), size))
    return data


def answer(request):
    if request["op"] == "encode":
        stored = [base64.b64encode(encode(i["chain"], base64.b64decode(i["raw"]), i["typesize"])).decode() for i in request["items"]]
        return {"id": request["id"], "stored": stored}
    results = []
    for i in request["items"]:
        try:
            results.append({"ok": base64.b64encode(decode(i["chain"], base64.b64decode(i["stored"]), i["size"])).decode()})
        except Refused as e:
            results.append({"error": str(e)[:200]})
    return {"id": request["id"], "results": results}


def main():
    for line in sys.stdin:
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
