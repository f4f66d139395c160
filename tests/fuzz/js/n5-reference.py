#!/usr/bin/python3
"""The N5 fuzzer's decompression reference (tests/fuzz/js/n5.mjs): the
compressors zarr-python 2 reads N5 blocks with, numcodecs' GZip, Zlib,
Blosc and Zstd (Debian's python3-numcodecs 0.11), as a child process.

One JSON request per line on stdin, one answer per line on stdout:

    {"id": 7, "blocks": [["gzip", "<base64>"], ["blosc", "<base64>"], ...]}
    {"id": 7, "results": [{"ok": "<base64>"}, {"error": "RuntimeError: ..."}, ...]}

Each block is decompressed on its own; a failure is that block's answer.
"""
import base64
import json
import sys

from numcodecs import GZip, Zlib, Blosc, Zstd

CODECS = {"gzip": GZip(), "zlib": Zlib(), "blosc": Blosc(), "zstd": Zstd()}


def decompress(name, data):
    try:
        out = CODECS[name].decode(data)
        return {"ok": base64.b64encode(bytes(out)).decode()}
    except Exception as e:  # noqa: BLE001 -- every failure is an answer
        return {"error": "%s: %s" % (type(e).__name__, str(e)[:200])}


def main():
    for line in sys.stdin:
        request = json.loads(line)
        results = [decompress(name, base64.b64decode(data)) for name, data in request["blocks"]]
        sys.stdout.write(json.dumps({"id": request["id"], "results": results}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
