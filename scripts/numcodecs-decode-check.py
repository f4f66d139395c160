#!/usr/bin/python3
"""Decodes frames this package's encoders wrote with Debian's numcodecs
(python3-numcodecs, an independent implementation) and checks each against
the bytes it was made from. Run by the native tests
(tests/native/compress_test.cpp, EncoderTest.NumcodecsDecodesEveryFrame):

    /usr/bin/python3 scripts/numcodecs-decode-check.py DIR

DIR/manifest.tsv lists per line: frame file, kind (zstd, gzip, zlib, lz4,
blosc), file of the original bytes. Exits 0 when every frame decodes to
its bytes, else prints each one that does not and exits 1.
"""
import os
import sys

import numcodecs

CODECS = {"zstd": numcodecs.Zstd(), "gzip": numcodecs.GZip(), "zlib": numcodecs.Zlib(),
          "lz4": numcodecs.LZ4(), "blosc": numcodecs.Blosc()}


def main(folder):
    failures = 0
    count = 0
    with open(os.path.join(folder, "manifest.tsv")) as manifest:
        for line in manifest:
            frame, kind, original = line.rstrip("\n").split("\t")
            with open(os.path.join(folder, frame), "rb") as f:
                data = f.read()
            with open(os.path.join(folder, original), "rb") as f:
                want = f.read()
            count += 1
            try:
                got = bytes(CODECS[kind].decode(data))
            except Exception as error:  # numcodecs raises RuntimeError, ValueError, OSError...
                print(f"{frame}: numcodecs {kind} refused it: {error}")
                failures += 1
                continue
            if got != want:
                print(f"{frame}: numcodecs {kind} decodes {len(got)} bytes that differ from the {len(want)} encoded")
                failures += 1
    print(f"numcodecs-decode-check: {count - failures} of {count} frames decode to their bytes")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
