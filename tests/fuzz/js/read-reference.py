#!/usr/bin/python3
"""The reference of the differential fuzz of `read` (read-differential.mjs):
a long-lived child process that writes a small store from a description
and answers, for each selection, what numpy reads there.

One JSON request per line on stdin, one answer per line on stdout:

    {"id": 7, "spec": {...}, "selections": [[{"i": -1}, null, {"s": [0, null, 2]}], ...]}
    {"id": 7, "files": [["arr/.zarray", "<base64>"], ...], "missing": ["arr/1.0", ...],
     "selections": [{"shape": [...], "kind": "bytes", ...} | {"error": "IndexError: ..."}, ...]}

or {"id": 7, "unwritable": "<why>"} where zarr-python 2 refuses the
description (counted by the fuzzer, not judged).

Zarr v2 stores are written by zarr-python 2 (Debian's python3-zarr 2.13,
numcodecs 0.11) into a dict, some chunk keys deleted, and read back with
zarr-python 2: that array is the reference. Where the fill is null
(zarr-python 2 leaves a missing chunk's region uninitialized), the region
of each missing chunk is zeros, as docs/read.md and docs/data-types.md say
read and withDataTypes fill it.

Zarr v3 stores are written here in zarr-python 3's format (zarr-python 3 is
not installable here), from numpy data; the reference is that data with the
region of every missing chunk (and missing inner chunk of a shard) set to
the fill value. Each format follows zarr-python 3's source (read, not
copied; zarr-developers/zarr-python at d44f9f92):
  - src/zarr/core/metadata/v3.py: the array document's members
    (zarr_format, node_type, shape, data_type, chunk_grid, chunk_key_encoding,
    fill_value, codecs, attributes, dimension_names only where given,
    storage_transformers);
  - src/zarr/core/dtype/npy/{bool,int,float,complex,time,string,bytes,
    structured}.py: data type names (numpy.datetime64 with unit and
    scale_factor, fixed_length_utf32 with length_bytes 4n,
    null_terminated_bytes, raw_bytes, variable_length_bytes, string, struct
    with {name, data_type} fields) and fill JSON forms: numbers, "NaN",
    "Infinity", "-Infinity", [re, im], int or "NaT" for datetimes, base64
    for bytes, a string for UTF-32, {field: value} for struct; and the hex
    form float_from_json_v3 reads ("0x" + 4, 8 or 16 digits), whose bits
    are the fill exactly (as the v3 spec says; zarr-python 3 itself turns
    it into a Python float on the way);
  - src/zarr/codecs/bytes.py ({"name": "bytes"} without configuration where
    the type has no byte order), blosc.py (typesize, cname, clevel,
    shuffle by name, blocksize), zstd.py (level, checksum), gzip.py
    (level), crc32c_.py, transpose.py (order), vlen_utf8.py (vlen-utf8 and
    vlen-bytes, empty configuration);
  - src/zarr/codecs/sharding.py: chunk_shape, codecs, index_codecs (bytes
    little + crc32c by default), index_location "end" or "start", offsets
    absolute (shifted by the index size when it is at the start), missing
    inner chunks as 2^64 - 1 twice, inner chunks in any order, a shard with
    no inner chunk not written;
  - src/zarr/core/chunk_key_encodings.py: "default" ("c" + separator +
    coordinates, "c" for 0-d) and "v2" (coordinates, "0" for 0-d), each with
    "/" or ".".
Edge chunks are written whole, padded with the fill value, as zarr-python
writes them.

The answer for a selection is presented as the package presents values
(docs/data-types.md): little-endian bytes in C order for fixed-size types
(bool as 0/1, complex with a trailing dimension of 2, datetimes as int64,
records as their packed bytes with every field little-endian and a trailing
dimension of the record's size, raw bytes with a trailing dimension of
their size, float16 both widened to float32 bits and as its own bits),
fixed-width byte strings as their n stored bytes, UTF-32 strings as Python
strings (numpy drops trailing U+0000), object arrays as their values
(bytes tagged {"b": base64}). "filled" lists the selection's elements that
come from a missing chunk.
"""
import base64
import json
import sys
import traceback

import numpy as np
import numcodecs
import zarr
from numcodecs import Blosc, GZip, LZ4, VLenBytes, VLenUTF8, Zlib, Zstd

MAX_U64 = 2**64 - 1

# ---- crc32c (Castagnoli), table-driven ------------------------------------------
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


# ---- dtypes ---------------------------------------------------------------------------

def to_dtype(descr):
    """A numpy dtype from the fuzzer's JSON form: a dtype string, or a list of
    [name, descr] / [name, descr, shape] fields (nested lists for nested records)."""
    if isinstance(descr, str):
        return np.dtype(descr)
    fields = []
    for f in descr:
        sub = to_dtype(f[1])
        fields.append((f[0], sub, tuple(f[2])) if len(f) > 2 else (f[0], sub))
    return np.dtype(fields)


def little(dt):
    return dt.newbyteorder("<") if dt.kind not in "SOb" else dt


# ---- random data ----------------------------------------------------------------------

SPECIAL_BITS = {
    2: [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x7E55, 0xFE01, 0x0001, 0x8001, 0x03FF, 0x7BFF, 0x3C00],
    4: [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x7FC02000, 0xFFC00001,
        0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x3F800000],
    8: [0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000,
        0x7FF0000000000001, 0x7FF8DEADBEEF0001, 0xFFF8000000000001, 0x0000000000000001, 0x7FEFFFFFFFFFFFFF,
        0x3FF0000000000000],
}


def special_ints(dt):
    info = np.iinfo(dt)
    out = [0, 1, info.min, info.max, info.max - 1]
    if dt.kind == "i":
        out += [-1, info.min + 1]
    for v in (2**53, 2**53 + 1, -(2**53) - 1, 2**63 - 1, 2**64 - 1, 2**31, -(2**31)):
        if info.min <= v <= info.max:
            out.append(v)
    return out


STRING_POOLS = [
    [chr(c) for c in range(0x20, 0x7F)],
    ["é", "ü", "ß", "Ω", "ж", "中", "文", "\u2603", "\ufffd", "\u00a0"],
    ["\U0001F600", "\U0001F4A9", "\U00010000", "\U0010FFFF", "\U0001D11E"],
    ["\x00"],
]


def random_string(rng, n, surrogates):
    length = int(rng.integers(0, n + 1))
    out = []
    for _ in range(length):
        pool = STRING_POOLS[int(rng.choice(4, p=[0.55, 0.2, 0.15, 0.1]))]
        out.append(pool[int(rng.integers(len(pool)))])
        if surrogates and rng.random() < 0.03:
            out[-1] = chr(int(rng.integers(0xD800, 0xE000)))
    return "".join(out)


def random_bytes_value(rng, n):
    length = int(rng.integers(0, n + 1))
    raw = bytearray(rng.bytes(length))
    for i in range(length):
        r = rng.random()
        if r < 0.15:
            raw[i] = 0
        elif r < 0.6:
            raw[i] = int(rng.integers(0x20, 0x7F))
    return bytes(raw)


def random_values(rng, dt, shape):
    """An array of dtype `dt` (any byte order) and shape `shape` with values of
    every kind the type holds: specials (NaN payloads, -0, infinities,
    extremes of the integers) mixed into random bits."""
    count = int(np.prod(shape, dtype=np.int64))
    if dt.fields is not None:
        out = np.zeros(shape, dtype=dt)
        for name in dt.names:
            sub = dt.fields[name][0]
            if sub.subdtype is not None:
                base, subshape = sub.subdtype
                out[name] = random_values(rng, base, tuple(shape) + subshape)
            else:
                out[name] = random_values(rng, sub, shape)
        return out
    kind = dt.kind
    if kind == "b":
        return (rng.integers(0, 2, size=count) == 1).reshape(shape)
    if kind == "V":
        return np.frombuffer(rng.bytes(count * dt.itemsize), dtype=dt).copy().reshape(shape)
    if kind in "iufcmM":
        raw = np.frombuffer(rng.bytes(count * dt.itemsize), dtype=little(dt)).copy()
        if kind in "iu":
            specials = special_ints(dt)
            for i in range(count):
                if rng.random() < 0.3:
                    raw[i] = specials[int(rng.integers(len(specials)))]
        elif kind in "fc":
            width = dt.itemsize if kind == "f" else dt.itemsize // 2
            bits = raw.view(f"<u{width}")
            specials = SPECIAL_BITS[width]
            for i in range(len(bits)):
                if rng.random() < 0.35:
                    bits[i] = specials[int(rng.integers(len(specials)))]
        elif kind in "mM":
            ints = raw.view("<i8")
            for i in range(count):
                r = rng.random()
                if r < 0.15:
                    ints[i] = -(2**63)  # NaT
                elif r < 0.5:
                    ints[i] = int(rng.integers(-1000, 1000))
        return raw.astype(dt).reshape(shape)
    if kind == "S":
        return np.array([random_bytes_value(rng, dt.itemsize) for _ in range(count)], dtype=dt).reshape(shape)
    if kind == "U":
        n = dt.itemsize // 4
        return np.array([random_string(rng, n, True) for _ in range(count)], dtype=dt).reshape(shape)
    raise ValueError("no values for %s" % dt)


def random_objects(rng, codec, shape):
    count = int(np.prod(shape, dtype=np.int64))
    out = np.empty(count, dtype=object)
    for i in range(count):
        if codec == "vlen-utf8":
            out[i] = random_string(rng, 6, False)
        else:
            out[i] = random_bytes_value(rng, 8)
    return out.reshape(shape)


# ---- fills ----------------------------------------------------------------------------

def pick_fill(rng, dt, form, fmt):
    """(numpy fill value, v3 JSON form) for fill form `form`: "zero", "special",
    "random", "hex" (v3 floats), "special-string" ("NaN" etc.)."""
    kind = dt.kind
    if dt.fields is not None or kind == "V":
        raw = np.zeros(1, dtype=dt) if form == "zero" else random_values(rng, dt, (1,))
        return raw[0], None
    if kind == "b":
        v = False if form == "zero" else bool(rng.integers(0, 2))
        return np.bool_(v), v
    if kind in "iu":
        if form == "zero":
            v = 0
        elif form == "special":
            s = [v for v in special_ints(dt) if abs(v) > 2**53] or special_ints(dt)
            v = s[int(rng.integers(len(s)))]
        else:
            v = int(random_values(rng, dt, (1,))[0])
        return dt.type(v), v
    if kind in "fc":
        width = dt.itemsize if kind == "f" else dt.itemsize // 2
        fdt = np.dtype(f"<f{width}")
        parts = 1 if kind == "f" else 2
        values, forms = [], []
        for _ in range(parts):
            if form == "zero":
                bits = 0
            elif form in ("special", "special-string"):
                bits = SPECIAL_BITS[width][int(rng.integers(len(SPECIAL_BITS[width])))]
            else:
                bits = int(np.frombuffer(rng.bytes(width), dtype=f"<u{width}")[0])
            value = np.array([bits], dtype=f"<u{width}").view(fdt)[0]
            json_form = float_json(value, bits, width, form, fmt)
            if isinstance(json_form, str) and json_form in ("NaN",):
                # "NaN" is the spec's NaN code, whatever bits were drawn.
                bits = {2: 0x7E00, 4: 0x7FC00000, 8: 0x7FF8000000000000}[width]
                value = np.array([bits], dtype=f"<u{width}").view(fdt)[0]
            values.append(value)
            forms.append(json_form)
        if kind == "f":
            return values[0].astype(dt), forms[0]
        out = np.zeros(1, dtype=f"<c{2 * width}")
        out.view(fdt)[0] = values[0]
        out.view(fdt)[1] = values[1]
        return out[0], forms
    if kind in "mM":
        if form == "zero":
            v = 0
        elif form == "special":
            v = int(rng.choice([-(2**63), 2**63 - 1, -(2**63) + 1, 2**53 + 1]))
        else:
            v = int(rng.integers(-1000, 1000))
        json_form = "NaT" if v == -(2**63) and rng.random() < 0.5 else v
        return np.array([v], dtype="<i8").view(little(dt))[0], json_form
    if kind == "S":
        v = b"" if form == "zero" else random_bytes_value(rng, dt.itemsize)
        return np.bytes_(v), base64.b64encode(v).decode()
    if kind == "U":
        v = "" if form == "zero" else random_string(rng, dt.itemsize // 4, False)
        return np.str_(v), v
    raise ValueError("no fill for %s" % dt)


def float_json(value, bits, width, form, fmt):
    """The v3 JSON form of a float fill (the v2 form is zarr-python 2's own)."""
    if form == "hex":
        return "0x%0*x" % (2 * width, bits)
    if np.isnan(value):
        return "NaN" if form != "hex" else "0x%0*x" % (2 * width, bits)
    if np.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return float(value)


# ---- v3 writing -----------------------------------------------------------------------

def v3_data_type(dt, descr):
    """zarr-python 3's data_type JSON for the (little-endian) numpy dtype."""
    if dt.fields is not None:
        fields = []
        for f in descr:
            fields.append({"name": f[0], "data_type": v3_data_type(to_dtype(f[1]), f[1])})
        return {"name": "struct", "configuration": {"fields": fields}}
    kind = dt.kind
    if kind == "b":
        return "bool"
    if kind in "iu":
        return ("int" if kind == "i" else "uint") + str(8 * dt.itemsize)
    if kind == "f":
        return "float" + str(8 * dt.itemsize)
    if kind == "c":
        return "complex" + str(8 * dt.itemsize)
    if kind in "mM":
        unit, scale = np.datetime_data(dt)
        return {"name": "numpy.datetime64" if kind == "M" else "numpy.timedelta64",
                "configuration": {"unit": unit, "scale_factor": int(scale)}}
    if kind == "S":
        return {"name": "null_terminated_bytes", "configuration": {"length_bytes": dt.itemsize}}
    if kind == "U":
        return {"name": "fixed_length_utf32", "configuration": {"length_bytes": dt.itemsize}}
    if kind == "V":
        return {"name": "raw_bytes", "configuration": {"length_bytes": dt.itemsize}}
    raise ValueError(dt)


def has_byte_order(dt):
    if dt.fields is not None:
        return any(has_byte_order(dt.fields[n][0]) for n in dt.names)
    if dt.subdtype is not None:
        return has_byte_order(dt.subdtype[0])
    return dt.kind in "iufcmMU" and dt.itemsize > 1


def v3_fill_json(dt, descr, fill, form_json):
    if dt.fields is not None:
        out = {}
        for f in descr:
            sub = to_dtype(f[1])
            out[f[0]] = v3_scalar_json(sub, f[1], fill[f[0]])
        return out
    if dt.kind == "V":
        return base64.b64encode(fill.tobytes()).decode()
    return form_json


def v3_scalar_json(dt, descr, value):
    """A struct member's fill JSON (plain forms: numbers, "NaN", [re, im], base64, strings)."""
    if dt.fields is not None:
        return {f[0]: v3_scalar_json(to_dtype(f[1]), f[1], value[f[0]]) for f in descr}
    kind = dt.kind
    if kind == "b":
        return bool(value)
    if kind in "iu":
        return int(value)
    if kind == "f":
        v = float(value)
        if np.isnan(v):
            width = dt.itemsize
            bits = int(np.array([value], dtype=little(dt)).view(f"<u{width}")[0])
            return "0x%0*x" % (2 * width, bits)
        if np.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if kind == "c":
        width = dt.itemsize // 2
        parts = np.array([value], dtype=little(dt)).view(f"<f{width}")
        return [v3_scalar_json(np.dtype(f"<f{width}"), None, p) for p in parts]
    if kind in "mM":
        return int(np.array([value], dtype=little(dt)).view("<i8")[0])
    if kind in "SV":
        return base64.b64encode(bytes(np.array([value], dtype=dt).tobytes())).decode()
    if kind == "U":
        return str(value)
    raise ValueError(dt)


def bytes_codec(dt, endian):
    if dt.hasobject:
        raise ValueError("object")
    if has_byte_order(dt):
        return {"name": "bytes", "configuration": {"endian": endian}}
    return {"name": "bytes"}


def encode_b2b(codec, raw, typesize):
    name = codec["name"]
    conf = codec.get("configuration", {})
    if name == "gzip":
        return bytes(GZip(level=conf["level"]).encode(raw))
    if name == "zstd":
        return bytes(Zstd(level=conf["level"]).encode(raw))
    if name == "blosc":
        shuffle = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}[conf["shuffle"]]
        view = np.frombuffer(raw, dtype=np.dtype((np.void, typesize))) if len(raw) % typesize == 0 and len(raw) else np.frombuffer(raw, dtype="u1")
        return bytes(Blosc(cname=conf["cname"], clevel=conf["clevel"], shuffle=shuffle, blocksize=conf["blocksize"]).encode(view))
    if name == "crc32c":
        return raw + crc32c(raw).to_bytes(4, "little")
    raise ValueError(name)


def encode_chunk_v3(chunk, dt, spec, codecs):
    """A chunk's stored bytes through `codecs` (transpose?, array -> bytes, bytes -> bytes)."""
    data = chunk
    raw = None
    for codec in codecs:
        name = codec["name"]
        if name == "transpose":
            data = np.transpose(data, codec["configuration"]["order"])
        elif name == "bytes":
            endian = codec.get("configuration", {}).get("endian", "little")
            stored = dt.newbyteorder("<" if endian == "little" else ">") if has_byte_order(dt) else dt
            raw = np.array(data, order="C").astype(stored).tobytes(order="C")
        elif name in ("vlen-bytes", "vlen-utf8"):
            codec_obj = VLenBytes() if name == "vlen-bytes" else VLenUTF8()
            raw = bytes(codec_obj.encode(np.array(data, order="C").reshape(-1)))
        else:
            raw = encode_b2b(codec, raw, max(1, dt.itemsize if not dt.hasobject else 1))
    return raw


def chunk_key(encoding, coords):
    sep = encoding["configuration"]["separator"]
    if encoding["name"] == "default":
        return sep.join(["c"] + [str(c) for c in coords])
    return sep.join(str(c) for c in coords) if coords else "0"


def grid(shape, chunks):
    return [-(-s // c) for s, c in zip(shape, chunks)]


def all_coords(counts):
    return [tuple(int(x) for x in c) for c in np.ndindex(*counts)] if counts else [()]


def region(coords, chunks, shape):
    return tuple(slice(c * k, min((c + 1) * k, s)) for c, k, s in zip(coords, chunks, shape))


def set_fill(target, where, fill):
    """target[where] = fill, with a bytes or str fill of an object array kept one value."""
    if where == ():
        where = Ellipsis  # a 0-d array's one element, as a view (not the element itself)
    if target.dtype.hasobject:
        one = np.empty((), dtype=object)
        one[()] = fill
        target[where] = one
    else:
        target[where] = fill


def padded_chunk(ref, coords, chunks, shape, fill, dt):
    out = np.empty(chunks, dtype=dt)
    set_fill(out, Ellipsis, fill)
    part = ref[region(coords, chunks, shape) or Ellipsis]  # (a 0-d array's view, not its element)
    out[tuple(slice(0, n) for n in part.shape) or Ellipsis] = part
    return out


def morton_order(counts):
    coords = all_coords(counts)
    def key(c):
        k = 0
        bits = max(1, max((int(x).bit_length() for x in c), default=1))
        for b in range(bits):
            for d, x in enumerate(c):
                k |= ((x >> b) & 1) << (b * len(c) + d)
        return k
    return sorted(coords, key=key)


def write_v3(spec, rng):
    descr = spec["dtype"]
    obj = spec.get("object")
    dt = np.dtype(object) if obj else to_dtype(descr)
    dt = dt if obj else (dt.newbyteorder("<") if dt.fields is not None else little(dt))
    shape = tuple(spec["shape"])
    chunks = tuple(spec["chunks"])
    data = random_objects(rng, obj, shape) if obj else random_values(rng, dt, shape)
    # The fill.
    if obj == "vlen-bytes":
        fill_bytes = b"" if spec["fill"] == "zero" else random_bytes_value(rng, 4)
        fill, fill_json = fill_bytes, base64.b64encode(fill_bytes).decode()
        data_type = "variable_length_bytes"
    elif obj == "vlen-utf8":
        fill = "" if spec["fill"] == "zero" else random_string(rng, 3, False)
        fill_json = fill
        data_type = "string"
    else:
        fill, form_json = pick_fill(rng, dt, spec["fill"], 3)
        fill_json = v3_fill_json(dt, descr, fill, form_json)
        data_type = v3_data_type(dt, descr)
    endian = spec.get("endian", "little")
    inner_chain = []
    if spec.get("transpose"):
        inner_chain.append({"name": "transpose", "configuration": {"order": spec["transpose"]}})
    if obj:
        inner_chain.append({"name": obj, "configuration": {}})
    else:
        inner_chain.append(bytes_codec(dt, endian))
    inner_chain += spec.get("compressors", [])
    encoding = spec["chunk_key_encoding"]
    files = {}
    missing = []
    ref = data.copy()
    filled = np.zeros(shape, dtype=bool)
    sharding = spec.get("sharding")
    missing_rate = spec.get("missing", 0)
    path = spec["path"]
    if sharding:
        inner = tuple(sharding["chunk_shape"])
        index_codecs = [{"name": "bytes", "configuration": {"endian": "little"}}]
        if sharding.get("index_crc", True):
            index_codecs.append({"name": "crc32c"})
        codecs = [{"name": "sharding_indexed", "configuration": {
            "chunk_shape": list(inner), "codecs": inner_chain, "index_codecs": index_codecs,
            "index_location": sharding["index_location"]}}]
        per_shard = [c // i for c, i in zip(chunks, inner)]
        n_inner = int(np.prod(per_shard, dtype=np.int64)) if per_shard else 1
        index_size = 16 * n_inner + (4 if sharding.get("index_crc", True) else 0)
        for coords in all_coords(grid(shape, chunks)):
            shard_region = region(coords, chunks, shape)
            if rng.random() < missing_rate:
                missing.append(chunk_key(encoding, coords))
                set_fill(ref, shard_region, fill)
                filled[shard_region] = True
                continue
            shard = padded_chunk(data, coords, chunks, shape, fill, dt)
            present = {}
            for ic in all_coords(per_shard):
                origin = [c * k + i * n for c, k, i, n in zip(coords, chunks, ic, inner)]
                inside = all(o < s for o, s in zip(origin, shape))
                sub = tuple(slice(i * n, (i + 1) * n) for i, n in zip(ic, inner))
                if not inside or rng.random() < sharding.get("missing_inner", 0):
                    # Not written: outside the array (all fill, as zarr-python 3
                    # leaves it) or dropped here.
                    reg = tuple(slice(o, min(o + n, s)) for o, n, s in zip(origin, inner, shape))
                    if inside:
                        set_fill(ref, reg, fill)
                        filled[reg] = True
                    continue
                present[ic] = encode_chunk_v3(shard[sub], dt, spec, inner_chain)
            if not present:
                missing.append(chunk_key(encoding, coords))
                continue
            order = {"lexicographic": all_coords(per_shard), "morton": morton_order(per_shard)}.get(sharding["order"])
            if order is None:
                order = all_coords(per_shard)
                rng.shuffle(order)
            offsets = np.full(tuple(per_shard) + (2,), MAX_U64, dtype="<u8")
            at = index_size if sharding["index_location"] == "start" else 0
            body = []
            for ic in order:
                if ic in present:
                    offsets[ic] = (at, len(present[ic]))
                    body.append(present[ic])
                    at += len(present[ic])
            index = offsets.tobytes(order="C")
            if sharding.get("index_crc", True):
                index += crc32c(index).to_bytes(4, "little")
            blob = index + b"".join(body) if sharding["index_location"] == "start" else b"".join(body) + index
            files[path + "/" + chunk_key(encoding, coords)] = blob
    else:
        codecs = inner_chain
        for coords in all_coords(grid(shape, chunks)):
            reg = region(coords, chunks, shape)
            key = chunk_key(encoding, coords)
            if rng.random() < missing_rate:
                missing.append(key)
                set_fill(ref, reg, fill)
                filled[reg] = True
                continue
            files[path + "/" + key] = encode_chunk_v3(padded_chunk(data, coords, chunks, shape, fill, dt), dt, spec, codecs)
    doc = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": list(shape),
        "data_type": data_type,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": encoding,
        "fill_value": fill_json,
        "codecs": codecs,
        "attributes": {},
        "storage_transformers": [],
    }
    if spec.get("dimension_names"):
        doc["dimension_names"] = ["d%d" % i for i in range(len(shape))]
    files[path + "/zarr.json"] = json.dumps(doc, indent=2).encode()
    if spec.get("stale_sibling"):
        # A leftover Zarr v2 document beside zarr.json, describing another
        # array (another byte order or type, another compressor).
        files[path + "/.zarray"] = json.dumps(spec["stale_sibling"], indent=4, sort_keys=True).encode()
    return files, missing, ref, filled, dt


# ---- v2 writing -----------------------------------------------------------------------

def write_v2(spec, rng, values=None):
    """`values(rng, dt, shape)`: the data written (random_values unless
    given; the filters fuzzer, filters-reference.py, gives its own)."""
    obj = spec.get("object")
    dt = np.dtype(object) if obj else to_dtype(spec["dtype"])
    shape = tuple(spec["shape"])
    chunks = tuple(spec["chunks"])
    data = random_objects(rng, obj, shape) if obj else (values or random_values)(rng, dt, shape)
    form = spec["fill"]
    if form == "null":
        fill = None
    elif obj == "vlen-utf8":
        fill = {"zero": 0, "special": "", "random": random_string(rng, 3, False)}.get(form, 0)
    elif obj:
        fill = 0
    elif form == "zero":
        fill = 0
    else:
        fill, _ = pick_fill(rng, dt, "special" if form in ("special-string", "hex") else form, 2)
        if dt.fields is not None or dt.kind == "V":
            fill = fill.tobytes()
        elif dt.kind in "mM":
            fill = fill.astype(dt)
        elif dt.kind == "S":
            fill = bytes(fill)
        elif dt.kind == "U":
            fill = str(fill)
    store = {}
    compressor = numcodecs.get_codec(dict(spec["compressor"])) if spec.get("compressor") else None
    filters = [numcodecs.get_codec(dict(f)) for f in spec.get("filters", [])] or None
    object_codec = {"vlen-utf8": VLenUTF8(), "vlen-bytes": VLenBytes()}.get(obj)
    path = spec["path"]
    z = zarr.create(store=store, path=path, shape=shape, chunks=chunks, dtype=dt, compressor=compressor,
                    fill_value=fill, order=spec.get("order", "C"), filters=filters, object_codec=object_codec,
                    dimension_separator=spec.get("separator", "."), write_empty_chunks=True)
    z[...] = data
    sep = spec.get("separator", ".")
    missing = []
    filled = np.zeros(shape, dtype=bool)
    regions = []
    for coords in all_coords(grid(shape, chunks)):
        key = sep.join(str(c) for c in coords) if coords else "0"
        if rng.random() < spec.get("missing", 0) and (path + "/" + key) in store:
            del store[path + "/" + key]
            missing.append(key)
            reg = region(coords, chunks, shape)
            filled[reg] = True
            regions.append(reg)
    back = zarr.open_array(store, path=path, mode="r")
    ref = back[...]
    if fill is None:
        for reg in regions:
            ref[reg] = np.zeros((), dtype=dt) if not obj else None
    elif dt.kind == "c":
        # zarr-python 2 decodes a complex fill as v[0] + 1j * v[1], which
        # makes the real part NaN where the imaginary part is infinite (and
        # NaNs of either sign): the reference takes each part as the JSON
        # says ("NaN" as numpy's NaN), as the v2 spec's [re, im] means.
        parts = json.loads(store[path + "/.zarray"])["fill_value"]
        width = dt.itemsize // 2
        exact = np.zeros(1, dtype=dt.newbyteorder("<"))
        view = exact.view(f"<f{width}")
        for k, part in enumerate(parts):
            view[k] = {"NaN": np.nan, "Infinity": np.inf, "-Infinity": -np.inf}.get(part, part) if isinstance(part, str) else part
        for reg in regions:
            ref[reg] = exact[0]
    files = {k: bytes(v) for k, v in store.items()}
    return files, missing, ref, filled, dt


# ---- selections and presentation ------------------------------------------------------

def to_index(sel):
    if sel is None:
        return Ellipsis
    out = []
    for s in sel:
        if s is None:
            out.append(slice(None))
        elif "i" in s:
            out.append(s["i"])
        elif "s" in s:
            out.append(slice(*s["s"]))
        elif "list" in s:
            out.append(list(s["list"]))
        elif "obj" in s:
            out.append(dict(s["obj"]))
        elif "str" in s:
            out.append(s["str"])
    return tuple(out)


def widen16(bits):
    h = bits.astype(np.uint32)
    sign = (h & 0x8000) << 16
    exp = (h >> 10) & 0x1F
    mant = h & 0x3FF
    normal = sign | ((exp + 112) << 23) | (mant << 13)
    special = sign | 0x7F800000 | (mant << 13)
    sub = np.ldexp(mant.astype(np.float32), -24).view(np.uint32) | sign
    return np.where(exp == 31, special, np.where(exp == 0, sub, normal)).astype("<u4")


def b64(raw):
    return base64.b64encode(raw).decode()


def present(value, dt, obj):
    a = np.asarray(value) if not obj else value
    if obj:
        a = np.asarray(a, dtype=object)
        flat = [tag(v) for v in a.reshape(-1)]
        return {"shape": list(a.shape), "kind": "values", "values": flat}
    a = np.array(a, order="C", copy=True)  # (ascontiguousarray would make a 0-d array 1-d)
    shape = list(a.shape)
    if dt.fields is not None:
        return {"shape": shape + [dt.itemsize], "kind": "bytes", "b64": b64(a.astype(dt.newbyteorder("<")).tobytes())}
    kind = dt.kind
    if kind == "b":
        return {"shape": shape, "kind": "bytes", "b64": b64(a.astype("u1").tobytes())}
    if kind == "V":
        return {"shape": shape + [dt.itemsize], "kind": "bytes", "b64": b64(a.tobytes())}
    if kind == "S":
        return {"shape": shape, "kind": "bytestrings", "chars": dt.itemsize, "b64": b64(a.tobytes())}
    if kind == "U":
        values = [str(v) for v in a.reshape(-1)]
        # The stored code units too: adjacent surrogates stored apart read
        # as one pair in a JS string, so strings alone cannot say them.
        return {"shape": shape, "kind": "strings", "chars": dt.itemsize // 4, "values": values,
                "units": [[ord(ch) for ch in v] for v in values]}
    la = a.astype(little(dt))
    if kind == "f" and dt.itemsize == 2:
        bits = la.view("<u2")
        return {"shape": shape, "kind": "float16", "b64": b64(widen16(bits).tobytes()), "bits": b64(bits.tobytes())}
    if kind == "c":
        return {"shape": shape + [2], "kind": "bytes", "b64": b64(la.tobytes())}
    if kind in "mM":
        return {"shape": shape, "kind": "bytes", "b64": b64(la.view("<i8").tobytes())}
    return {"shape": shape, "kind": "bytes", "b64": b64(la.tobytes())}


def tag(v):
    if isinstance(v, (bytes, np.bytes_)):
        return {"b": b64(bytes(v))}
    if isinstance(v, (np.integer,)):
        return int(v)
    return v


def answer(request):
    spec = request["spec"]
    rng = np.random.default_rng(spec["seed"])
    try:
        if spec["format"] == 2:
            files, missing, ref, filled, dt = write_v2(spec, rng)
        else:
            files, missing, ref, filled, dt = write_v3(spec, rng)
    except Exception as e:  # noqa: BLE001 -- zarr-python 2 refusing a description is an answer
        return {"id": request["id"], "unwritable": "%s: %s" % (type(e).__name__, str(e)[:300]),
                "trace": traceback.format_exc()[-1500:]}
    obj = spec.get("object")
    results = []
    for sel in request["selections"]:
        try:
            index = to_index(sel)
            value = ref[index]
            mask = np.asarray(filled[index]).reshape(-1)
        except Exception as e:  # noqa: BLE001 -- numpy refusing a selection is the reference's answer
            results.append({"error": "%s: %s" % (type(e).__name__, str(e)[:200])})
            continue
        out = present(value, dt, obj)
        # Presented elements per stored element (a trailing dimension).
        out["tail"] = 2 if dt.kind == "c" else dt.itemsize if dt.kind == "V" else 1
        out["filled"] = [int(i) for i in np.nonzero(mask)[0]]
        results.append(out)
    return {"id": request["id"], "files": [[k, b64(v)] for k, v in sorted(files.items())], "missing": missing,
            "selections": results}


def serve(answer_of):
    """The reference-process protocol: one JSON request a line on stdin,
    its answer (or the reference's own failure) a line on stdout."""
    for line in sys.stdin:
        request = json.loads(line)
        try:
            text = json.dumps(answer_of(request))
        except Exception:  # noqa: BLE001 -- the reference's own failure, reported as such
            text = json.dumps({"id": request["id"], "failed": traceback.format_exc()[-1500:]})
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(answer)
