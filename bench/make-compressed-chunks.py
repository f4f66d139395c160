#!/usr/bin/python3
"""The chunks bench/compressors.mjs decodes, written by Debian's numcodecs
into a folder the bench removes afterwards:

    /usr/bin/python3 bench/make-compressed-chunks.py DIR [--quick]

The image: 4096 x 4096 uint16, 12-bit, microscopy-like (a smooth
background of cells plus Poisson noise), generated from a fixed seed. It is
cut into chunks of 512 x 512 (512 KiB, the issue's store) and, for the
chunk-size sweep, 128 x 256 (64 KiB), 1024 x 512 (1 MiB) and
4096 x 2048 (16 MiB), and each set compressed with every codec the bench
times. DIR/cases.tsv lists per line: case name, kind (zstd, gzip, zlib,
lz4, blosc), decoded bytes per chunk, chunk count, folder (chunk-<i>.bin).
"""
import os
import sys

import numcodecs
import numpy as np
from numcodecs import blosc

CODECS = {
    "zstd L3": ("zstd", numcodecs.Zstd(level=3)),
    "blosc lz4 shuffle": ("blosc", numcodecs.Blosc(cname="lz4", clevel=5, shuffle=blosc.SHUFFLE)),
    "blosc zstd shuffle": ("blosc", numcodecs.Blosc(cname="zstd", clevel=5, shuffle=blosc.SHUFFLE)),
    "blosc blosclz shuffle": ("blosc", numcodecs.Blosc(cname="blosclz", clevel=5, shuffle=blosc.SHUFFLE)),
    "blosc lz4 bitshuffle": ("blosc", numcodecs.Blosc(cname="lz4", clevel=5, shuffle=blosc.BITSHUFFLE)),
    "gzip L1": ("gzip", numcodecs.GZip(level=1)),
    "zlib L1": ("zlib", numcodecs.Zlib(level=1)),
    "lz4": ("lz4", numcodecs.LZ4()),
}
CHUNKS = {"64 KiB": (128, 256), "512 KiB": (512, 512), "1 MiB": (1024, 512), "16 MiB": (4096, 2048)}


def image():
    rng = np.random.default_rng(20261126)
    y, x = np.mgrid[0:4096, 0:4096].astype(np.float32)
    background = 300 + 200 * np.sin(x / 97.0) * np.cos(y / 131.0)
    cells = np.zeros((4096, 4096), np.float32)
    for cy, cx, r, v in zip(rng.integers(0, 4096, 400), rng.integers(0, 4096, 400), rng.integers(8, 40, 400),
                            rng.integers(500, 2500, 400)):
        y0, y1, x0, x1 = max(cy - r, 0), min(cy + r, 4096), max(cx - r, 0), min(cx + r, 4096)
        yy, xx = np.ogrid[y0:y1, x0:x1]
        cells[y0:y1, x0:x1] += v * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (0.5 * r * r))
    return np.minimum(rng.poisson(background + cells), 4095).astype("<u2")


def main(out, quick):
    img = image()
    sizes = {"512 KiB": CHUNKS["512 KiB"]} if quick else CHUNKS
    codecs = {k: CODECS[k] for k in (["zstd L3", "blosc lz4 shuffle", "gzip L1", "lz4"] if quick else CODECS)}
    with open(os.path.join(out, "cases.tsv"), "w") as cases:
        for size, (h, w) in sizes.items():
            chunks = [img[y:y + h, x:x + w].copy() for y in range(0, 4096, h) for x in range(0, 4096, w)]
            if quick:
                chunks = chunks[:8]
            for name, (kind, codec) in codecs.items():
                folder = f"{name} {size}".replace(" ", "-")
                os.makedirs(os.path.join(out, folder))
                for i, chunk in enumerate(chunks):
                    with open(os.path.join(out, folder, f"chunk-{i}.bin"), "wb") as f:
                        f.write(codec.encode(chunk))
                cases.write(f"{name}, {size} chunks\t{kind}\t{chunks[0].nbytes}\t{len(chunks)}\t{folder}\n")


if __name__ == "__main__":
    main(sys.argv[1], "--quick" in sys.argv)
