#!/usr/bin/python3
"""The reference of the differential fuzz of the array -> array codecs
(filters-differential.mjs): a long-lived child process that writes a small
store from a description and answers, for each selection, the values the
store holds there, or that reading it must fail.

The protocol is read-reference.py's (this process imports its helpers):
one JSON request per line on stdin, one answer per line on stdout:

    {"id": 7, "spec": {...}, "selections": [[{"i": -1}, null, {"s": [0, null, 2]}], ...]}
    {"id": 7, "files": [["arr/zarr.json", "<base64>"], ...], "missing": ["c/1/0", ...],
     "failing": {"c/0/1": "<why that chunk cannot be decoded>"}, "nan_loose": true,
     "selections": [{"shape": [...], "kind": "bytes", "b64": ..., "filled": [...], "nan": [...]}
                    | {"refused": "<why>", ...} | {"either": "<why>", ...} | {"error": "IndexError: ..."}, ...]}

or {"id": 7, "unwritable": "<why>"} where the store cannot be written.

Zarr v2 (numcodecs' filters delta, fixedscaleoffset, quantize, bitround,
astype, shuffle): written by zarr-python 2.13 with numcodecs 0.11
(read-reference.py's write_v2, with this file's values), some chunks
deleted, and read back with zarr-python 2: that array is the reference,
bit for bit.

Zarr v3 ([scale_offset?, cast_value, bytes, compressor?] and [bitround,
bytes, compressor?]): the STORED values (the encoded side) are drawn here
and written as raw little-endian chunk bytes; the reference decodes them as
the zarr-extensions pages codecs/cast_value, codecs/scale_offset and
codecs/bitround define it, written from those pages (not from the
package), in exact arithmetic (Python ints and Fractions):
  - bitround decodes to the stored values unchanged;
  - cast_value decodes each stored scalar, in order: the first
    scalar_map.decode entry whose key is the value (a "NaN" key matches
    any NaN; keys compare by value, so 0 matches -0); else the value
    itself where the array's type holds it exactly (NaN stays NaN and an
    infinity stays itself in a float type, signed zero kept); else it is
    rounded by `rounding` (nearest-even by default; to an integer, or to
    the float type's grid, whose exponent is bounded below, subnormals,
    and not above) and a rounded value beyond the type's range goes to
    `out_of_range`: clamp (the integer bounds; +-Infinity for a float
    type), wrap (modulo 2^N, two's complement), or, without it, an error;
    NaN or an infinity into an integer type is an error;
  - scale_offset decodes `in / scale + offset` in the array type's
    arithmetic: integers exactly (a division with a remainder, or a result
    out of the type's range, is an error: "not representable"); floats
    with IEEE operations of the type, rounding to nearest (numpy float32
    and float64), where a finite value overflowing to an infinity is an
    error and NaN and infinities pass through;
  - a chunk with any element that cannot be decoded (its edge padding
    included: the codecs decode whole chunks) cannot be read: a selection
    with an element in it must be refused; one whose slice bounds only
    span it (a step jumps over the chunk, or the slice is empty) may be
    either, as a reader may visit it (zarrita's indexer does); a missing
    chunk is the array's fill, decoded from nothing;
  - the array's fill is one that, as it reaches cast_value (through
    scale_offset's encode), casts to the stored type and back to itself
    (the cast_value page: "If the fill value cannot survive a round-trip
    cast, implementations MUST treat this as an error"), so the store is
    valid.
cast_value's page does not require NaN payloads to be kept ("Payload
preservation is not required"): where the reference is NaN through a cast
or a scale, any NaN is the reference's ("nan" lists those elements);
bitround and zarr-python 2 stores are compared bit for bit.
"""
import importlib.util
import json
import math
import os
import traceback
import warnings
from fractions import Fraction

import numpy as np

_spec = importlib.util.spec_from_file_location("read_reference", os.path.join(os.path.dirname(os.path.abspath(__file__)), "read-reference.py"))
rr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rr)
# numpy's casts of NaN and out-of-range values (numcodecs' filters make them) warn on stderr.
warnings.filterwarnings("ignore")


class Undecodable(Exception):
    """A stored value the pages say cannot be decoded (or a fill that cannot be encoded)."""


# ---- the types ------------------------------------------------------------------------

# name: (exponent bits, mantissa bits); each IEEE-like (NaN, +-Infinity,
# subnormals), as the data-type pages define float16, bfloat16 and float8_e4m3.
FLOATS = {"float16": (5, 10), "bfloat16": (8, 7), "float8_e4m3": (4, 3), "float32": (8, 23), "float64": (11, 52)}
# name: (bits, signed)
INTS = {"int4": (4, True), "uint4": (4, False), "int8": (8, True), "uint8": (8, False), "int16": (16, True),
        "uint16": (16, False), "int32": (32, True), "uint32": (32, False), "int64": (64, True), "uint64": (64, False)}
NUMPY = {"int8": "<i1", "uint8": "<u1", "int16": "<i2", "uint16": "<u2", "int32": "<i4", "uint32": "<u4",
         "int64": "<i8", "uint64": "<u8", "float16": "<f2", "float32": "<f4", "float64": "<f8"}


def is_float(t):
    return t in FLOATS


def width_bytes(t):
    if t in INTS:
        return max(1, INTS[t][0] // 8)
    e, m = FLOATS[t]
    return (1 + e + m) // 8


def int_range(t):
    bits, signed = INTS[t]
    return (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2 ** bits - 1)


def float_params(t):
    e, m = FLOATS[t]
    emax = 2 ** (e - 1) - 1
    return e, m, emax, 1 - emax, (2 - Fraction(1, 2 ** m)) * Fraction(2) ** emax


def largest(t):
    return float(float_params(t)[4])


def decode_bits(t, bits):
    """The value of stored bits: an int, or an exact float (NaN, +-inf, -0.0)."""
    if t in INTS:
        nbits, signed = INTS[t]
        v = bits & ((1 << nbits) - 1)  # int4/uint4: the upper bits of the byte are ignored
        return v - (1 << nbits) if signed and v >= 1 << (nbits - 1) else v
    e, m, emax, emin, _ = float_params(t)
    sign = -1.0 if bits >> (e + m) & 1 else 1.0
    exp = (bits >> m) & ((1 << e) - 1)
    man = bits & ((1 << m) - 1)
    if exp == (1 << e) - 1:
        return math.copysign(math.inf, sign) if man == 0 else math.nan
    if exp == 0:
        return math.copysign(math.ldexp(man, emin - m), sign)
    return math.copysign(math.ldexp((1 << m) + man, exp - emax - m), sign)


def encode_bits(t, v):
    """The bits of a value `t` holds exactly (NaN: the quiet NaN with the top mantissa bit)."""
    if t in INTS:
        nbits, _ = INTS[t]
        return int(v) & ((1 << nbits) - 1)
    e, m, emax, emin, _ = float_params(t)
    if math.isnan(v):
        return ((1 << e) - 1) << m | 1 << (m - 1)
    sign = 1 if math.copysign(1.0, v) < 0 else 0
    a = abs(v)
    if math.isinf(a):
        return sign << (e + m) | ((1 << e) - 1) << m
    if a == 0:
        return sign << (e + m)
    _, ex = math.frexp(a)
    big_e = ex - 1
    if big_e < emin:
        man = Fraction(a) / Fraction(2) ** (emin - m)
        assert man.denominator == 1, (t, v)
        return sign << (e + m) | int(man)
    man = Fraction(a) / Fraction(2) ** (big_e - m)
    assert man.denominator == 1, (t, v)
    return sign << (e + m) | (big_e + emax) << m | (int(man) - (1 << m))


def parse_scalar(t, j):
    """A scalar in the fill-value JSON encoding of `t` (v3 core: numbers, "NaN",
    "Infinity", "-Infinity", "0x" + the bits in hex), as a value of `t`."""
    if isinstance(j, str):
        if j.startswith("0x"):
            return decode_bits(t, int(j, 16))
        v = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[j]
        if t in INTS:
            raise ValueError("%s for %s" % (j, t))
        return v
    if t in INTS:
        if int(j) != j:
            raise ValueError("%r for %s" % (j, t))
        return int(j)
    if j == 0:
        return math.copysign(0.0, j) if isinstance(j, float) else 0.0
    # A JSON number: the nearest value of the type (ties to even).
    return to_type_nearest(t, j)


def to_type_nearest(t, x):
    """x (int or float) as the nearest value of `t` (ints: clipped; floats: +-inf beyond range)."""
    if t in INTS:
        lo, hi = int_range(t)
        if isinstance(x, float) and not math.isfinite(x):
            return 0
        return min(hi, max(lo, round_int(Fraction(x), "nearest-even")))
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    if x == 0:
        return math.copysign(0.0, x) if isinstance(x, float) else 0.0
    r = round_float(Fraction(x), t, "nearest-even")
    if abs(r) > float_params(t)[4]:
        return math.copysign(math.inf, x)
    return float(r) if r != 0 else math.copysign(0.0, x)


# ---- rounding, exactly ------------------------------------------------------------------

def round_int(fr, mode):
    fl = math.floor(fr)
    d = fr - fl
    if d == 0:
        return fl
    half = Fraction(1, 2)
    if mode == "nearest-even":
        return fl if d < half or (d == half and fl % 2 == 0) else fl + 1
    if mode == "nearest-away":
        return fl if d < half or (d == half and fr < 0) else fl + 1
    if mode == "towards-zero":
        return fl if fr > 0 else fl + 1
    if mode == "towards-positive":
        return fl + 1
    if mode == "towards-negative":
        return fl
    raise ValueError(mode)


def round_float(fr, t, mode):
    """fr (nonzero) rounded to the grid of float type `t`: the exponent bounded
    below (subnormal spacing), not above (the range is out_of_range's)."""
    _, m, _, emin, _ = float_params(t)
    a = abs(fr)
    big_e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** big_e > a:
        big_e -= 1
    q = Fraction(2) ** (max(big_e, emin) - m)
    return round_int(fr / q, mode) * q


# ---- the codecs, from their pages -------------------------------------------------------

def same_value(a, b):
    """Bit-level identity of two values of one type (NaN is NaN; -0 is not 0)."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def key_matches(v, k):
    if isinstance(k, float) and math.isnan(k):
        return isinstance(v, float) and math.isnan(v)
    if isinstance(v, float) and math.isnan(v):
        return False
    return v == k


def cast(v, src, dst, conf, entries, direction):
    """cast_value's procedure for one scalar of `src` into `dst`."""
    for k, out in entries:
        if key_matches(v, k):
            return out
    mode = conf.get("rounding", "nearest-even")
    oor = conf.get("out_of_range")
    if isinstance(v, float) and math.isnan(v):
        if is_float(dst):
            return math.nan
        raise Undecodable("%s: NaN into %s" % (direction, dst))
    if isinstance(v, float) and math.isinf(v):
        if is_float(dst):
            return v
        raise Undecodable("%s: %s into %s" % (direction, v, dst))
    fr = Fraction(v)
    if dst in INTS:
        lo, hi = int_range(dst)
        n = round_int(fr, mode)
        if lo <= n <= hi:
            return n
        if oor == "clamp":
            return lo if n < lo else hi
        if oor == "wrap":
            bits, signed = INTS[dst]
            w = n % (1 << bits)
            return w - (1 << bits) if signed and w >= 1 << (bits - 1) else w
        raise Undecodable("%s: %s is out of %s's range (no out_of_range)" % (direction, v, dst))
    if fr == 0:
        return math.copysign(0.0, v) if isinstance(v, float) else 0.0
    r = round_float(fr, dst, mode)
    if abs(r) > float_params(dst)[4]:
        if oor == "clamp":
            return math.copysign(math.inf, v)
        raise Undecodable("%s: %s rounds to %s, beyond %s's range (out_of_range %s)" % (direction, v, float(r), dst, oor))
    return float(r) if r != 0 else math.copysign(0.0, v)


def np_float(t):
    return np.float32 if t == "float32" else np.float64


def so_decode(v, t, scale, offset):
    """scale_offset's decode, `in / scale + offset`, in the arithmetic of `t`."""
    if t in INTS:
        lo, hi = int_range(t)
        if v % scale != 0:
            raise Undecodable("decode: %d / %d has a remainder (not representable in %s)" % (v, scale, t))
        q = v // scale
        if not lo <= q <= hi:
            raise Undecodable("decode: %d / %d = %d is out of %s's range" % (v, scale, q, t))
        r = q + offset
        if not lo <= r <= hi:
            raise Undecodable("decode: %d + %d = %d is out of %s's range" % (q, offset, r, t))
        return r
    f = np_float(t)
    with np.errstate(all="ignore"):
        x = f(v) / f(scale)
        if np.isinf(x) and np.isfinite(f(v)):
            raise Undecodable("decode: %r / %r overflows %s" % (v, scale, t))
        y = x + f(offset)
        if np.isinf(y) and np.isfinite(x):
            raise Undecodable("decode: %r + %r overflows %s" % (float(x), offset, t))
    return float(y)


def so_encode(v, t, scale, offset):
    if t in INTS:
        lo, hi = int_range(t)
        d = v - offset
        if not lo <= d <= hi:
            raise Undecodable("encode: %d - %d is out of %s's range" % (v, offset, t))
        r = d * scale
        if not lo <= r <= hi:
            raise Undecodable("encode: %d * %d is out of %s's range" % (d, scale, t))
        return r
    f = np_float(t)
    with np.errstate(all="ignore"):
        x = f(v) - f(offset)
        if np.isinf(x) and np.isfinite(f(v)):
            raise Undecodable("encode: overflow")
        y = x * f(scale)
        if np.isinf(y) and np.isfinite(x):
            raise Undecodable("encode: overflow")
    return float(y)


class Chain:
    """A v3 chain's array -> array codecs, as the pages define them."""

    def __init__(self, spec):
        self.array_type = spec["dtype"]
        self.scale = self.offset = None
        self.cast = None
        self.bitround = False
        self.stored_type = self.array_type
        for codec in spec["codecs"]:
            name, conf = codec["name"], codec.get("configuration", {})
            if name == "scale_offset":
                t = self.array_type
                self.scale = parse_scalar(t, conf.get("scale", 1))
                self.offset = parse_scalar(t, conf.get("offset", 0))
            elif name == "cast_value":
                self.cast = conf
                self.stored_type = conf["data_type"]
                smap = conf.get("scalar_map", {})
                self.encode_entries = [(parse_scalar(self.array_type, k), parse_scalar(self.stored_type, o)) for k, o in smap.get("encode", [])]
                self.decode_entries = [(parse_scalar(self.stored_type, k), parse_scalar(self.array_type, o)) for k, o in smap.get("decode", [])]
            elif name == "bitround":
                self.bitround = True

    def decode(self, s):
        t = s
        if self.cast is not None:
            t = cast(s, self.stored_type, self.array_type, self.cast, self.decode_entries, "decode")
        if self.scale is not None:
            t = so_decode(t, self.array_type, self.scale, self.offset)
        return t

    def survives(self, fill):
        """The cast_value page's check: the fill as it reaches cast_value
        (through scale_offset's encode, which must not fail) cast to the
        stored type and back is itself."""
        try:
            v = fill
            if self.scale is not None:
                v = so_encode(v, self.array_type, self.scale, self.offset)
            if self.cast is None:
                return True
            stored = cast(v, self.array_type, self.stored_type, self.cast, self.encode_entries, "encode")
            return same_value(cast(stored, self.stored_type, self.array_type, self.cast, self.decode_entries, "decode"), v)
        except Undecodable:
            return False


# ---- stored values ------------------------------------------------------------------------

def pick(rng, values):
    """One of `values` (Python ints past 2^63 kept exact, as numpy's choice would not)."""
    return values[int(rng.integers(len(values)))]


def rand_int(rng, lo, hi):
    """lo..hi inclusive, for any 64-bit range."""
    if hi > 2**63 - 1:
        return int(rng.integers(lo, hi, endpoint=True, dtype=np.uint64))
    return int(rng.integers(lo, hi, endpoint=True))


def wild_stored(rng, t, keys):
    """A stored value of any kind: random bits, specials, a scalar_map key."""
    r = rng.random()
    if keys and r < 0.25:
        return keys[int(rng.integers(len(keys)))]
    if t in INTS:
        lo, hi = int_range(t)
        return pick(rng, [lo, hi, 0, -1 if lo < 0 else 1, rand_int(rng, lo, hi)])
    specials = [math.nan, math.inf, -math.inf, -0.0, 0.0, largest(t), -largest(t)]
    if r < 0.6:
        return specials[int(rng.integers(len(specials)))]
    nbits = 8 * width_bytes(t)
    return decode_bits(t, rand_int(rng, 0, 2 ** nbits - 1))


def tame_stored(rng, chain, t, keys):
    """A stored value likely to decode: a value of the array type's range
    (near its bounds sometimes), encoded by the page's arithmetic in floats,
    then moved onto the stored type's grid."""
    at = chain.array_type
    r = rng.random()
    if keys and r < 0.05:
        return keys[int(rng.integers(len(keys)))]
    if at in INTS:
        lo, hi = int_range(at)
        want = pick(rng, [int(rng.integers(-50, 300)), rand_int(rng, lo, hi), lo, hi, lo + int(rng.integers(0, 3)), hi - int(rng.integers(0, 3))])
    else:
        want = pick(rng, [float(rng.integers(-300, 300)), float(rng.normal()) * 10.0 ** int(rng.integers(-4, 8)), float(rng.integers(-300, 300)) + 0.5])
    x = float(want)
    if chain.scale is not None:
        x = (x - float(chain.offset)) * float(chain.scale)
    if rng.random() < 0.3 and t in INTS:
        x += pick(rng, [0.5, -0.5, 0.25, 0.75, 0.49])
    if t in INTS and not is_float(at):
        return to_type_nearest(t, round(x) if rng.random() < 0.7 else x)
    return to_type_nearest(t, x)


def stored_chunk(rng, chain, n, wild, keys):
    t = chain.stored_type
    out = []
    for _ in range(n):
        if rng.random() < wild:
            out.append(wild_stored(rng, t, keys))
            continue
        for _ in range(6):
            v = tame_stored(rng, chain, t, keys)
            try:
                chain.decode(v)
                break
            except Undecodable:
                continue
        out.append(v)
    return out


def bits_array(t, values, rng):
    """The chunk's bytes: each value's little-endian bits (int4/uint4 with random upper bits, which readers ignore)."""
    w = width_bytes(t)
    bits = [encode_bits(t, v) for v in values]
    if t in ("int4", "uint4"):
        bits = [b | int(rng.integers(0, 16)) << 4 for b in bits]
    return np.array(bits, dtype="<u%d" % w).tobytes()


def to_array_bits(t, values):
    """Values of the array type as a numpy array of that type (exact)."""
    dt = np.dtype(NUMPY[t])
    if t in INTS:
        return np.array(values, dtype=dt)
    return np.array(values, dtype="<f8").astype(dt)


def fill_json(t, v):
    if t in INTS:
        return int(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def write_v3(spec, rng):
    chain = Chain(spec)
    at, st = chain.array_type, chain.stored_type
    shape, chunks = tuple(spec["shape"]), tuple(spec["chunks"])
    keys = [k for k, _ in getattr(chain, "decode_entries", [])] if chain.cast is not None else []
    per_chunk = int(np.prod(chunks, dtype=np.int64))
    # The fill: one that survives the round trip (see the module's doc).
    candidates = []
    form = spec["fill"]
    if form == "nan" and is_float(at):
        candidates.append(math.nan)
    elif form == "inf" and is_float(at):
        candidates.append(math.copysign(math.inf, rng.random() - 0.5))
    elif form == "decoded":
        for v in stored_chunk(rng, chain, 4, 0.0, keys):
            try:
                candidates.append(chain.decode(v))
            except Undecodable:
                pass
    # The offset encodes to 0, which every stored type holds.
    candidates += ([chain.offset] if chain.scale is not None else []) + [0 if at in INTS else 0.0]
    # A 64-bit integer fill past 2^53 reaches the codecs rounded (zarrita
    # parses zarr.json with JSON.parse; issue 28's fills past 2^53): left out.
    candidates = [f for f in candidates if not (at in INTS and abs(f) > 2**53)]
    fill = next((f for f in candidates if chain.bitround or chain.survives(f)), None)
    if fill is None:
        raise ValueError("no fill survives the round trip through %s" % json.dumps(spec["codecs"]))
    dt = np.dtype(NUMPY[at])
    ref = np.zeros(shape, dtype=dt)
    filled = np.zeros(shape, dtype=bool)
    nan = np.zeros(shape, dtype=bool)
    files = {}
    missing = []
    failing = {}
    failing_coords = {}
    path = spec["path"]
    codecs = spec["codecs"]
    compressors = [c for c in codecs if c["name"] in ("zstd", "gzip")]
    for coords in rr.all_coords(rr.grid(shape, chunks)):
        key = "/".join(["c"] + [str(c) for c in coords])
        reg = rr.region(coords, chunks, shape) or Ellipsis
        if rng.random() < spec.get("missing", 0):
            missing.append(key)
            ref[reg] = to_array_bits(at, [fill])[0]
            filled[reg] = True
            if is_float(at) and math.isnan(fill):
                nan[reg] = True
            continue
        stored = stored_chunk(rng, chain, per_chunk, spec.get("wild", 0.02), keys)
        plain = bits_array(st, stored, rng)
        raw = plain
        for c in compressors:
            raw = rr.encode_b2b(c, raw, width_bytes(st))
        files["%s/%s" % (path, key)] = raw
        if chain.bitround:
            # bitround decodes to what is stored, bit for bit.
            whole = np.frombuffer(plain, dtype=dt).reshape(chunks)
            part = whole[tuple(slice(0, r.stop - r.start) for r in reg)] if reg is not Ellipsis else whole
            ref[reg] = part
            continue
        decoded = []
        why = None
        for i, s in enumerate(stored):
            try:
                decoded.append(chain.decode(s))
            except Undecodable as e:
                why = "element %s (stored %s): %s" % (list(np.unravel_index(i, chunks)) if chunks else [], json.dumps(fill_json(st, s)), e)
                break
        if why is not None:
            failing[key] = why
            failing_coords[coords] = why
            continue
        whole = to_array_bits(at, decoded).reshape(chunks)
        part = whole[tuple(slice(0, r.stop - r.start) for r in reg)] if reg is not Ellipsis else whole
        ref[reg] = part
        if is_float(at):
            nan[reg] = np.isnan(part)
    array_doc = {
        "zarr_format": 3, "node_type": "array", "shape": list(shape), "data_type": at,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": fill_json(at, fill), "codecs": codecs, "attributes": {},
    }
    files["%s/zarr.json" % path] = json.dumps(array_doc).encode()
    files["zarr.json"] = json.dumps({"zarr_format": 3, "node_type": "group", "attributes": {}}).encode()
    return files, missing, ref, filled, dt, failing_coords, failing, nan


# ---- Zarr v2 values -----------------------------------------------------------------------

def v2_values(rng, dt, shape):
    """Values for a filter chain: mostly moderate (small integers, decimals
    across magnitudes, values near an integer type's bounds), some of
    read-reference.py's every-kind values (NaN payloads, -0, infinities,
    random bits)."""
    wild = rr.random_values(rng, dt, shape).reshape(-1)
    out = wild.copy()
    for i in range(out.size):
        r = rng.random()
        if r < 0.2:
            continue
        if dt.kind in "iu":
            info = np.iinfo(dt)
            v = pick(rng, [int(rng.integers(-100, 1000)), int(rng.integers(0, 60)), int(info.max) - int(rng.integers(0, 5)), int(info.min) + int(rng.integers(0, 5))])
            out[i] = min(info.max, max(info.min, v))
        else:
            out[i] = pick(rng, [float(rng.integers(-1000, 1000)), float(rng.normal()) * 10.0 ** int(rng.integers(-3, 6)), round(float(rng.normal()) * 100, 2)])
    return out.reshape(shape)


# ---- the answer -------------------------------------------------------------------------------

def axis_entries(index, shape):
    entries = list(index) if isinstance(index, tuple) else []
    return entries + [slice(None)] * (len(shape) - len(entries))


def selected_chunks(index, shape, chunks):
    """Per axis, the chunks holding an element the selection takes."""
    out = []
    for n, e, c in zip(shape, axis_entries(index, shape), chunks):
        try:
            out.append(set(int(p) // c for p in np.atleast_1d(np.arange(n)[e])))
        except IndexError:
            # An integer array past the axis, which numpy lets by when
            # another axis selects nothing (docs/read.md refuses such lists).
            out.append(set())
    return out


def spanned_chunks(index, shape, chunks):
    """Per axis, the chunks between a slice's start and stop, which a reader
    may visit (zarrita's indexer does) though a step jumps over them."""
    out = []
    for n, e, c in zip(shape, axis_entries(index, shape), chunks):
        if isinstance(e, slice):
            start, stop, step = e.indices(n)
            lo, hi = (start, stop) if step > 0 else (stop + 1, start + 1)
            lo = min(max(lo, 0), max(n - 1, 0))
            hi = max(min(hi, n), lo + 1)
            out.append(set(range(lo // c, (hi - 1) // c + 1)) if n else set())
        elif isinstance(e, list):  # an integer array (numpy's fancy indexing; docs/read.md refuses it)
            out.append({(int(p) % n) // c for p in e if -n <= int(p) < n} if n else set())
        else:
            out.append({(int(e) % n) // c} if n else set())
    return out


def answer(request):
    spec = request["spec"]
    rng = np.random.default_rng(spec["seed"])
    failing_coords, failing, nan, nan_loose = {}, {}, None, False
    try:
        if spec["format"] == 2:
            files, missing, ref, filled, dt = rr.write_v2(spec, rng, values=v2_values)
        else:
            files, missing, ref, filled, dt, failing_coords, failing, nan = write_v3(spec, rng)
            nan_loose = any(c["name"] in ("cast_value", "scale_offset") for c in spec["codecs"])
    except Exception as e:  # noqa: BLE001 -- a store that cannot be written is an answer
        return {"id": request["id"], "unwritable": "%s: %s" % (type(e).__name__, str(e)[:300]),
                "trace": traceback.format_exc()[-1500:]}
    shape = tuple(spec["shape"])
    chunks = tuple(spec["chunks"])
    results = []
    for sel in request["selections"]:
        try:
            index = rr.to_index(sel)
            value = ref[index]
            mask = np.asarray(filled[index]).reshape(-1)
            nan_mask = np.asarray(nan[index]).reshape(-1) if nan is not None else np.zeros(mask.shape, dtype=bool)
        except Exception as e:  # noqa: BLE001 -- numpy refusing a selection is the reference's answer
            results.append({"error": "%s: %s" % (type(e).__name__, str(e)[:200])})
            continue
        out = rr.present(value, dt, None)
        out["tail"] = 1
        out["filled"] = [int(i) for i in np.nonzero(mask)[0]]
        out["nan"] = [int(i) for i in np.nonzero(nan_mask)[0]] if nan_loose else []
        if failing_coords:
            touched = selected_chunks(index, shape, chunks)
            spanned = spanned_chunks(index, shape, chunks)
            hit = [k for k in failing_coords if all(k[a] in touched[a] for a in range(len(shape)))]
            near = [k for k in failing_coords if all(k[a] in spanned[a] for a in range(len(shape)))]
            if hit:
                out = {"refused": "chunk %s: %s" % (list(hit[0]), failing_coords[hit[0]]), "shape": out["shape"]}
            elif near:
                out["either"] = "chunk %s is between the slice's bounds, none of its elements selected: %s" % (list(near[0]), failing_coords[near[0]])
        results.append(out)
    return {"id": request["id"], "files": [[k, rr.b64(v)] for k, v in sorted(files.items())], "missing": missing,
            "failing": failing, "nan_loose": nan_loose, "selections": results}


if __name__ == "__main__":
    rr.serve(answer)
