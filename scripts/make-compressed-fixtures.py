#!/usr/bin/python3
"""Writes tests/fixtures/compressed/: compressed chunks as other
implementations write them, for the native tests of src/compress/ and the
seed corpus of tests/fuzz/fuzz_decompress.cpp.

The writers are Debian's: numcodecs 0.11 (python3-numcodecs: Zstd, GZip,
Zlib, LZ4, Blosc over Debian's libzstd, zlib, liblz4 and libblosc1), the
zstd command-line tool (a streaming frame without a content size, a frame
with a checksum), and Debian's libblosc.so.1 called directly (ctypes) for
the one frame numcodecs cannot make: a buffer whose length is not a
multiple of its typesize. Nothing here uses this package's code.

    /usr/bin/python3 scripts/make-compressed-fixtures.py

manifest.tsv lists, per frame: its file, its kind (zstd, gzip, zlib, lz4,
blosc), the file of the bytes it decodes to, and what it is.
"""
import ctypes
import gzip
import os
import subprocess
import sys

import numpy as np
import numcodecs
from numcodecs import blosc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "compressed")
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus", "decompress")
KINDS = {"zstd": 0, "gzip": 1, "zlib": 2, "lz4": 3, "blosc": 4}


def image(shape, dtype, seed):
    """Microscopy-like: a smooth 12-bit background with Poisson noise."""
    rng = np.random.default_rng(seed)
    y, x = np.indices(shape[:2])
    base = 600 + 400 * np.sin(x / 7.0) * np.cos(y / 5.0) + 3 * x
    values = rng.poisson(np.clip(base, 1, None)).astype(np.int64) & 0xFFF
    return values.astype(dtype)


frames = []
raws = {}


def raw(name, data):
    raws[name] = bytes(data)
    return name


def frame(name, kind, decoded, data, what):
    frames.append((name, kind, decoded, bytes(data), what))


def zstd_cli(data, *args):
    return subprocess.run(["zstd", "-q", "-c", *args], input=data, stdout=subprocess.PIPE, check=True).stdout


def main():
    u16 = image((32, 64), "<u2", 1)  # 4096 bytes
    r16 = raw("u16-32x64.raw", u16.tobytes())
    b16 = u16.tobytes()

    # zstd: numcodecs (content size in the header), several frames one
    # after another, the CLI's streaming frame (no content size) and its
    # checksummed frame, an empty chunk.
    frame("zstd-l3.zst", "zstd", r16, numcodecs.Zstd(level=3).encode(u16), "numcodecs Zstd(level=3)")
    half = len(b16) // 2
    frame("zstd-two-frames.zst", "zstd", r16,
          numcodecs.Zstd(level=1).encode(b16[:half]) + numcodecs.Zstd(level=1).encode(b16[half:]),
          "two numcodecs Zstd frames, one after the other")
    # Through a pipe the CLI knows no size: a streaming writer's frame.
    streamed = subprocess.run("cat | zstd -q -c -3 --no-check", shell=True, input=b16,
                              stdout=subprocess.PIPE, check=True).stdout
    frame("zstd-streamed.zst", "zstd", r16, streamed, "zstd CLI through a pipe: no content size")
    frame("zstd-checksum.zst", "zstd", r16, zstd_cli(b16, "-3", "--check"), "zstd CLI --check: content checksum")
    r0 = raw("empty.raw", b"")
    frame("zstd-empty.zst", "zstd", r0, numcodecs.Zstd(level=3).encode(b""), "numcodecs Zstd of no bytes")

    # gzip: numcodecs (Python's gzip), two members, zero padding after.
    g = numcodecs.GZip(level=1).encode(u16)
    frame("gzip-l1.gz", "gzip", r16, g, "numcodecs GZip(level=1)")
    frame("gzip-two-members.gz", "gzip", r16,
          gzip.compress(b16[:half], 6, mtime=0) + gzip.compress(b16[half:], 6, mtime=0),
          "two gzip members (Python's gzip), as gzip's -c of two files")
    frame("gzip-padded.gz", "gzip", r16, g + bytes(16), "numcodecs GZip then 16 zero bytes (Python's gzip reads them)")
    frame("gzip-name.gz", "gzip", r16,
          subprocess.run(["gzip", "-c", "-N", "-9"], input=b16, stdout=subprocess.PIPE, check=True).stdout,
          "gzip CLI")
    frame("gzip-empty.gz", "gzip", r0, numcodecs.GZip(level=1).encode(b""), "numcodecs GZip of no bytes")

    # zlib.
    frame("zlib-l1.zz", "zlib", r16, numcodecs.Zlib(level=1).encode(u16), "numcodecs Zlib(level=1)")
    frame("zlib-l9.zz", "zlib", r16, numcodecs.Zlib(level=9).encode(u16), "numcodecs Zlib(level=9)")
    frame("zlib-empty.zz", "zlib", r0, numcodecs.Zlib(level=1).encode(b""), "numcodecs Zlib of no bytes")

    # lz4 (numcodecs' framing).
    frame("lz4-a1.lz4", "lz4", r16, numcodecs.LZ4(acceleration=1).encode(u16), "numcodecs LZ4()")
    frame("lz4-a8.lz4", "lz4", r16, numcodecs.LZ4(acceleration=8).encode(u16), "numcodecs LZ4(acceleration=8)")
    frame("lz4-empty.lz4", "lz4", r0, numcodecs.LZ4().encode(b""), "numcodecs LZ4 of no bytes")

    # blosc: every cname and shuffle on uint16 (typesize 2).
    shuffles = {"noshuffle": blosc.NOSHUFFLE, "shuffle": blosc.SHUFFLE, "bitshuffle": blosc.BITSHUFFLE}
    for cname in ["blosclz", "lz4", "lz4hc", "zlib", "zstd"]:
        for sname, shuffle in shuffles.items():
            codec = numcodecs.Blosc(cname=cname, clevel=5, shuffle=shuffle)
            frame(f"blosc-{cname}-{sname}-t2.blosc", "blosc", r16, codec.encode(u16),
                  f"numcodecs Blosc(cname={cname}, clevel=5, shuffle={sname}), uint16")
    # typesize 1, 4, 8.
    for dtype, seed in [("u1", 2), ("<u4", 3), ("<f8", 4)]:
        values = image((16, 64), dtype, seed) if dtype != "<f8" else image((16, 32), "<f8", seed) / 7.0
        name = raw(f"{np.dtype(dtype).name}-{values.nbytes}.raw", values.tobytes())
        t = np.dtype(dtype).itemsize
        for cname, sname in [("lz4", "shuffle"), ("zstd", "bitshuffle"), ("blosclz", "noshuffle")]:
            codec = numcodecs.Blosc(cname=cname, clevel=5, shuffle=shuffles[sname])
            frame(f"blosc-{cname}-{sname}-t{t}.blosc", "blosc", name, codec.encode(values),
                  f"numcodecs Blosc(cname={cname}, shuffle={sname}), {np.dtype(dtype).name}")
    # memcpyed (clevel 0), and data that does not compress.
    frame("blosc-memcpyed-clevel0.blosc", "blosc", r16,
          numcodecs.Blosc(cname="lz4", clevel=0, shuffle=blosc.SHUFFLE).encode(u16), "numcodecs Blosc(clevel=0): memcpyed")
    noise = raw("noise-3000.raw", np.random.default_rng(5).integers(0, 256, 3000, dtype=np.uint8).tobytes())
    frame("blosc-memcpyed-noise.blosc", "blosc", noise,
          numcodecs.Blosc(cname="lz4", clevel=5, shuffle=blosc.NOSHUFFLE).encode(np.frombuffer(raws[noise], np.uint8)),
          "numcodecs Blosc of random bytes: memcpyed")
    # Several blocks, the last one short (10000 bytes in blocks of 2048).
    # c-blosc makes the blocks of codecs that split them by type byte
    # (blosclz, lz4, zlib) at least 64 KiB whatever the blocksize asked
    # for, so those are Debian's libblosc's with splitting turned off.
    u16b = image((50, 100), "<u2", 6)  # 10000 bytes
    rb = raw("u16-50x100.raw", u16b.tobytes())
    frame("blosc-zstd-blocks.blosc", "blosc", rb,
          numcodecs.Blosc(cname="zstd", clevel=5, shuffle=blosc.SHUFFLE, blocksize=2048).encode(u16b),
          "numcodecs Blosc(cname=zstd, shuffle, blocksize=2048): 5 blocks, the last of 1808 bytes")
    lib = ctypes.CDLL("libblosc.so.1")

    def libblosc(data, cname, shuffle, typesize, blocksize, clevel=5):
        dest = ctypes.create_string_buffer(len(data) + 16)
        n = lib.blosc_compress_ctx(clevel, shuffle, typesize, len(data), data, dest, len(dest), cname, blocksize, 1)
        assert n > 0
        return dest.raw[:n]

    lib.blosc_set_splitmode(2)  # BLOSC_NEVER_SPLIT
    for cname in ["lz4", "zlib", "blosclz"]:
        frame(f"blosc-{cname}-blocks.blosc", "blosc", rb, libblosc(raws[rb], cname.encode(), blosc.SHUFFLE, 2, 2048),
              f"libblosc blosc_compress_ctx({cname}, shuffle, typesize 2, blocksize 2048), never split: "
              "5 blocks, the last of 1808 bytes")
    lib.blosc_set_splitmode(4)  # BLOSC_FORWARD_COMPAT_SPLIT, c-blosc's default
    frame("blosc-empty.blosc", "blosc", r0, numcodecs.Blosc(cname="lz4").encode(b""), "numcodecs Blosc of no bytes")
    # nbytes not a multiple of typesize: Debian's libblosc directly.
    odd = raws[r16][:1001]
    ro = raw("u16-1001-bytes.raw", odd)
    for sname, shuffle in shuffles.items():
        frame(f"blosc-lz4-{sname}-t4-1001.blosc", "blosc", ro, libblosc(odd, b"lz4", shuffle, 4, 256),
              f"libblosc blosc_compress_ctx(lz4, {sname}, typesize 4, blocksize 256) of 1001 bytes")

    r0 = "empty.raw"
    os.makedirs(OUT, exist_ok=True)
    for name, data in raws.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    with open(os.path.join(OUT, "manifest.tsv"), "w") as m:
        m.write("# frame\tkind\tdecodes to\twritten by (scripts/make-compressed-fixtures.py)\n")
        for name, kind, decoded, data, what in frames:
            with open(os.path.join(OUT, name), "wb") as f:
                f.write(data)
            # numcodecs 0.11 refuses to decode its own LZ4 and Blosc frames of
            # no bytes (it takes a decoded size of 0 for a failure).
            if not (decoded == r0 and kind in ("lz4", "blosc")):
                assert reference_decode(kind, data) == raws[decoded], name
            m.write(f"{name}\t{kind}\t{decoded}\t{what}\n")

    # The fuzzer's seeds: its input layout (tests/fuzz/fuzz_decompress.cpp)
    # is a kind byte, the decoded size as 4 little-endian bytes, the frame.
    os.makedirs(CORPUS, exist_ok=True)
    for name, kind, decoded, data, what in frames:
        if len(data) > 3000:
            continue
        with open(os.path.join(CORPUS, name + ".seed"), "wb") as f:
            f.write(bytes([KINDS[kind]]) + len(raws[decoded]).to_bytes(4, "little") + data)
    print(f"make-compressed-fixtures: {len(frames)} frames in {OUT}")


def reference_decode(kind, data):
    """Each frame decodes back to its bytes (a check of this script): with
    numcodecs, but zstd with the zstd CLI, since numcodecs 0.11 decodes
    only frames that carry their content size, and only the first frame."""
    if kind == "zstd":
        return zstd_cli(data, "-d")
    codec = {"gzip": numcodecs.GZip(), "zlib": numcodecs.Zlib(), "lz4": numcodecs.LZ4(),
             "blosc": numcodecs.Blosc()}[kind]
    return bytes(codec.decode(data))


if __name__ == "__main__":
    sys.exit(main())
