#!/usr/bin/python3
"""Reads one N5 array with zarr-python 2's N5FSStore and prints it in our
view, for tests that compare against an independent N5 reader.

    /usr/bin/python3 scripts/n5-read-back.py <n5 root> <array path>

Run with Debian's python3 (python3-zarr: zarr 2.13.6, numcodecs 0.11.0).
Prints one JSON object on stdout:

    {"shape": [...], "dtype": "<N5 dataType, e.g. uint16>", "le_hex": "...",
     "numpy_shape": [...], "numpy_le_hex": "..."}

"shape" is attributes.json "dimensions" order (withN5's axes "n5"), and
"le_hex" the values in it: zarr-python 2 shows N5 axes reversed, so they
are np.transpose(z[...]), C order, little-endian, as hex. "numpy_shape" and
"numpy_le_hex" are zarr-python's own view (withN5's axes "reversed"):
z.shape and z[...]. Absent blocks read as 0. If opening or reading fails (a
compression zarr-python cannot decode, a missing array, a bad block) the
exception is printed on stderr and the exit status is 1.
"""
import json
import sys

import numpy as np


def read_back(root, path):
    import zarr
    from zarr.n5 import N5FSStore

    store = N5FSStore(root, mode="r")
    z = zarr.open_array(store=store, path=path, mode="r")
    attrs = json.loads(store[path.strip("/") + "/attributes.json"])
    values = z[...]
    ours = np.ascontiguousarray(np.transpose(values))
    if list(ours.shape) != attrs["dimensions"]:
        raise ValueError("shape %s does not match dimensions %s"
                         % (list(ours.shape), attrs["dimensions"]))
    return {
        "shape": list(ours.shape),
        "dtype": attrs["dataType"],
        "le_hex": ours.astype(ours.dtype.newbyteorder("<")).tobytes().hex(),
        "numpy_shape": list(values.shape),
        "numpy_le_hex": values.astype(values.dtype.newbyteorder("<")).tobytes().hex(),
    }


def main(argv):
    if len(argv) != 3:
        print("usage: n5-read-back.py <n5 root> <array path>", file=sys.stderr)
        return 2
    try:
        result = read_back(argv[1], argv[2])
    except Exception as e:  # noqa: BLE001 -- any failure is reported the same way
        print("%s: %s" % (type(e).__name__, e), file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
