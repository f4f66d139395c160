"""packbits (zarr-extensions), written from the spec page's text.

Each value's low `bits` bits, least significant first, one continuous bit
stream, padded with 0 bits; imported by the fixture scripts beside it.
"""

import numpy as np


def packbits(values, bits):
    width = values.dtype.itemsize * 8
    all_bits = np.unpackbits(np.ascontiguousarray(values).astype(values.dtype.newbyteorder("<")).view("u1"),
                             bitorder="little").reshape(-1, width)
    return np.packbits(all_bits[:, :bits].reshape(-1), bitorder="little").tobytes()
