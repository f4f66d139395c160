#!/usr/bin/python3
"""Writes tests/fixtures/cast-scale/cases.json: expected results of the
cast_value and scale_offset codecs, computed from their zarr-extensions
pages (codecs/cast_value, codecs/scale_offset) in exact arithmetic, sharing
no code with the package.

- Float formats are enumerated from their layouts (exponent bits, mantissa
  bits, bias, kind: IEEE with infinities and NaN, fnuz with one NaN at
  0x80, fn all finite, e8m0 powers of two with NaN 0xFF), each code's value
  a Fraction. A finite value rounds to the set of values by the page's five
  modes: between its two neighbours, ties to the even code (nearest-even)
  or away from zero. float16 is also checked against numpy's float16 for
  nearest-even, float32 against numpy's float32.
- out_of_range: after rounding, a value past the finite range is clamped
  (to +-infinity where the target has them, else to its largest/least) or
  wrapped modulo 2^N (integers), or is an error; NaN and infinities into a
  type without them are an error; scalar_map is looked up first.
- scale_offset: numpy float32 scalars (each operation rounds to float32),
  Python floats for float64, Python ints for integers (an error where a
  value leaves the type's range or a division leaves a remainder).

Values are written as strings: integers in decimal, float32/float64 as
Python's repr (what JavaScript's Number() reads back to the same double),
"nan", "inf", "-inf"; other float formats as their bit codes (integers).
Run: /usr/bin/python3 scripts/make-cast-scale-fixtures.py
"""
import json
import math
import random
from fractions import Fraction

import numpy as np

OUT = "tests/fixtures/cast-scale/cases.json"

FORMATS = {
    "float16": (5, 10, 15, "ieee"),
    "bfloat16": (8, 7, 127, "ieee"),
    "float8_e4m3": (4, 3, 7, "ieee"),
    "float8_e5m2": (5, 2, 15, "ieee"),
    "float8_e3m4": (3, 4, 3, "ieee"),
    "float8_e4m3fnuz": (4, 3, 8, "fnuz"),
    "float8_e5m2fnuz": (5, 2, 16, "fnuz"),
    "float8_e8m0fnu": (8, 0, 127, "e8m0"),
    "float6_e2m3fn": (2, 3, 1, "fn"),
    "float4_e2m1fn": (2, 1, 1, "fn"),
}
NAN, INF = "nan", "inf"


def code_value(name, code):
    e, m, bias, kind = FORMATS[name]
    if kind == "e8m0":
        return NAN if code == 0xFF else Fraction(2) ** (code - bias)
    if kind == "fnuz" and code == 0x80:
        return NAN
    sign = -1 if code >> (e + m) & 1 else 1
    field = (code >> m) & ((1 << e) - 1)
    mant = code & ((1 << m) - 1)
    if kind == "ieee" and field == (1 << e) - 1:
        return NAN if mant else (INF if sign > 0 else "-inf")
    if field == 0:
        v = Fraction(mant, 1 << m) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(mant, 1 << m)) * Fraction(2) ** (field - bias)
    if v == 0 and sign < 0:
        return "-0"
    return sign * v


def table(name):
    e, m, bias, kind = FORMATS[name]
    bits = 8 if kind == "e8m0" else 1 + e + m
    finite = {}
    for code in range(1 << bits):
        v = code_value(name, code)
        if isinstance(v, Fraction):
            finite.setdefault(v, code)  # +0 before -0
    return sorted(finite.items())


TABLES = {name: table(name) for name in FORMATS}
VALUES = {name: [v for v, _ in TABLES[name]] for name in FORMATS}
CODES = {name: dict(TABLES[name]) for name in FORMATS}
INTS = {f"{'u' if u else ''}int{b}": (0 if u else -(1 << (b - 1)), (1 << b) - 1 if u else (1 << (b - 1)) - 1, b)
        for b in (2, 4, 8, 16, 32, 64) for u in (False, True)}


class Refused(Exception):
    pass


def round_between(x, lo, hi, mode, lo_even):
    """x strictly between lo and hi (Fractions)."""
    if mode == "towards-positive":
        return hi
    if mode == "towards-negative":
        return lo
    if mode == "towards-zero":
        return lo if x > 0 else hi
    mid = (lo + hi) / 2
    if x < mid:
        return lo
    if x > mid:
        return hi
    if mode == "nearest-away":
        return hi if x > 0 else lo
    return lo if lo_even else hi


def float64_fraction(x):
    return Fraction(x)


def to_float(x, name, mode, rule):
    """x: Fraction, 'nan', 'inf', '-inf', '-0' -> a value of float `name`."""
    if name in ("float32", "float64"):
        return to_ieee_native(x, name, mode, rule)
    e, m, bias, kind = FORMATS[name]
    values = VALUES[name]
    codes = CODES[name]
    if x == NAN:
        if kind == "fn":
            raise Refused("nan")
        return NAN
    if x in (INF, "-inf"):
        if kind != "ieee":
            raise Refused("inf")
        return x
    if x == "-0":
        if kind in ("ieee", "fn"):
            return "-0"
        x = Fraction(0)
    largest, least = values[-1], values[0]
    if x in codes:
        r = x
    elif x > largest or x < least:
        r = None  # out of range before rounding; rounding past the edge keeps it there
        if x > largest:
            # between largest and the next grid step: nearest may round back
            step = largest - values[-2]
            r = round_between(x, largest, largest + step, mode, codes[largest] % 2 == 0) if kind != "e8m0" else None
            if kind == "e8m0":
                nxt = largest * 2
                r = round_between(x, largest, nxt, mode, codes[largest] % 2 == 0) if x < nxt else nxt
            elif x >= largest + step:
                r = x  # beyond: out of range whatever the mode
        else:
            if kind == "e8m0":
                r = round_between(x, Fraction(0), least, mode, False) if x > 0 else x
            else:
                step = values[1] - least
                r = round_between(x, least - step, least, mode, True) if x > least - step else x
    else:
        import bisect
        i = bisect.bisect_left(values, x)
        lo, hi = values[i - 1], values[i]
        r = round_between(x, lo, hi, mode, codes[lo] % 2 == 0)
    if r in codes:
        if r == 0 and x < 0 and kind in ("ieee", "fn"):
            return "-0"
        return r
    if rule == "clamp":
        if kind == "ieee":
            return INF if r > 0 else "-inf"
        return largest if r > 0 and r > largest else least
    raise Refused(f"range {x}")


def to_ieee_native(x, name, mode, rule):
    dtype = np.float32 if name == "float32" else np.float64
    if x in (NAN, INF, "-inf", "-0"):
        return x
    info = np.finfo(dtype)
    largest = Fraction(float(info.max))
    with np.errstate(over="ignore"):
        near = dtype(float(x)) if name == "float64" else np.float32(np.float64(float(x)))
    # exact neighbours by nextafter around the nearest-even candidate
    c = Fraction(float(near)) if np.isfinite(near) else None
    if c is None or abs(x) > largest:
        step = Fraction(2) ** (127 - 23) if name == "float32" else Fraction(2) ** (1023 - 52)
        if mode in ("nearest-even", "nearest-away") and abs(x) < largest + step / 2:
            r = largest if x > 0 else -largest
        elif (mode == "towards-zero") or (mode == "towards-negative" and x > 0) or (mode == "towards-positive" and x < 0):
            r = largest if x > 0 else -largest
        else:
            r = None
        if r is not None:
            return r
        if rule == "clamp":
            return INF if x > 0 else "-inf"
        raise Refused("range")
    if c == x:
        r = c
    else:
        lo = c if c < x else Fraction(float(np.nextafter(near, dtype(-np.inf))))
        hi = c if c > x else Fraction(float(np.nextafter(near, dtype(np.inf))))
        lo_bits = int(np.array([float(lo)], dtype=dtype).view(np.uint32 if name == "float32" else np.uint64)[0])
        r = round_between(x, lo, hi, mode, lo_bits % 2 == 0)
        if abs(r) > largest:
            if rule == "clamp":
                return INF if x > 0 else "-inf"
            raise Refused("range")
    if r == 0 and x < 0:
        return "-0"
    return r


def round_int(x, mode):
    f = math.floor(x)
    rest = x - f
    if rest == 0:
        return f
    return int(round_between(x, Fraction(f), Fraction(f + 1), mode, f % 2 == 0))


def to_int(x, name, mode, rule):
    lo, hi, bits = INTS[name]
    if x in (NAN, INF, "-inf"):
        raise Refused("special")
    if x == "-0":
        x = Fraction(0)
    r = round_int(x, mode)
    if lo <= r <= hi:
        return r
    if rule == "clamp":
        return lo if r < lo else hi
    if rule == "wrap":
        w = r % (1 << bits)
        return w - (1 << bits) if w > hi else w
    raise Refused("range")


def value_of(json_value, name):
    """A scalar in the fill-value encoding (numbers only here) -> reference value."""
    if json_value in ("NaN", "Infinity", "-Infinity"):
        return {"NaN": NAN, "Infinity": INF, "-Infinity": "-inf"}[json_value]
    return Fraction(json_value)


def same(a, b):
    return a == b


def cast(x, src, dst, config):
    for key, out in config.get("_map", []):
        if same(key, x) or (isinstance(key, Fraction) and isinstance(x, str) and x == "-0" and key == 0):
            return out
    mode = config.get("rounding", "nearest-even")
    rule = config.get("out_of_range")
    if dst in INTS:
        return to_int(x, dst, mode, rule)
    return to_float(x, dst, mode, rule)


def show(v, name):
    """Reference value -> the fixture's string."""
    if name in INTS:
        return str(int(v))
    if name in FORMATS:
        return str(code_of(v, name))
    if isinstance(v, str):
        return v
    return repr(float(v)) if name == "float64" else repr(float(np.float32(float(v))))


def code_of(v, name):
    e, m, bias, kind = FORMATS[name]
    if v == NAN:
        return ((1 << e) - 1) << m | (1 << max(m - 1, 0)) if kind == "ieee" else (0x80 if kind == "fnuz" else 0xFF)
    if v in (INF, "-inf"):
        return ((1 << e) - 1) << m | (1 << (e + m) if v == "-inf" else 0)
    if v == "-0":
        return 1 << (e + m)
    return CODES[name][v]


def parse_input(s, name):
    if name in FORMATS:
        return code_value(name, int(s))
    if name in INTS:
        return Fraction(int(s))
    if s in (NAN, INF, "-inf"):
        return s
    if s == "-0.0":
        return "-0"
    return Fraction(float(s))


def case(cases, src, dst, config, inputs):
    """One cast of `inputs` (fixture strings of src) to dst: outputs or null (an error)."""
    out = []
    for s in inputs:
        try:
            out.append(show(cast(parse_input(s, src), src, dst, config), dst))
        except Refused:
            out.append(None)
    public = {k: v for k, v in config.items() if not k.startswith("_")}
    cases.append({"from": src, "to": dst, "configuration": public, "inputs": inputs, "outputs": out})


def f32s(values):
    return [repr(float(np.float32(v))) if not isinstance(v, str) else v for v in values]


def main():
    rng = random.Random(35)
    cases = []
    modes = ["nearest-even", "towards-zero", "towards-positive", "towards-negative", "nearest-away"]
    ties = ["-2.5", "-1.5", "-0.5", "-0.0", "0.0", "0.5", "1.5", "2.5", "0.3", "-0.7", "126.5", "127.5", "-128.5", "-129.0", "200.0", "-300.0"]
    for mode in modes:
        for rule in (None, "clamp", "wrap"):
            config = {"data_type": "int8", "rounding": mode}
            if rule:
                config["out_of_range"] = rule
            case(cases, "float64", "int8", config, ties)
            config = dict(config, data_type="uint8")
            case(cases, "float64", "uint8", config, ties)
    # the page's examples
    case(cases, "float64", "int8", {"data_type": "int8", "out_of_range": "wrap"}, ["128.0"])
    case(cases, "float64", "int8", {"data_type": "int8", "out_of_range": "clamp"}, ["128.0"])
    case(cases, "int32", "int16", {"data_type": "int16", "out_of_range": "wrap"}, ["32768", "32769", "-32769"])
    numpy_like = {"data_type": "uint8", "rounding": "towards-zero", "out_of_range": "wrap",
                  "scalar_map": {"encode": [["NaN", 0], ["+Infinity", 0], ["-Infinity", 0]]}}
    # "+Infinity" is no fill-value encoding: the page's example writes it, but only
    # "Infinity" is Zarr v3's; the fixture uses the spelled forms readers accept.
    numpy_like["scalar_map"]["encode"] = [["NaN", 0], ["Infinity", 0], ["-Infinity", 0]]
    numpy_like["_map"] = [(NAN, 0), (INF, 0), ("-inf", 0)]
    case(cases, "float64", "uint8", numpy_like, ["nan", "inf", "-inf", "300.7", "-1.5", "255.9"])
    nan_map = {"data_type": "uint8", "scalar_map": {"encode": [["NaN", 0]], "decode": [[0, "NaN"]]}, "_map": [(NAN, 0)]}
    case(cases, "float64", "uint8", nan_map, ["nan", "1.0", "255.0"])
    # the same map read the other way: 0 is NaN (the page's decode entry)
    case(cases, "uint8", "float64", {"data_type": "float64", "scalar_map": {"encode": [[0, "NaN"]]}, "_map": [(Fraction(0), NAN)]}, ["0", "1", "255"])
    # first occurrence of a key wins
    dup = {"data_type": "int8", "scalar_map": {"encode": [[1.0, 5], [1.0, 6]]}, "_map": [(Fraction(1), 5)]}
    case(cases, "float32", "int8", dup, ["1.0", "2.0"])
    # special values
    case(cases, "float32", "int16", {"data_type": "int16"}, ["nan", "inf", "-inf", "-0.0"])
    case(cases, "float64", "float32", {"data_type": "float32"}, ["nan", "inf", "-inf", "-0.0", "0.1", "1e300", "-1e300", "1e-50", "-1e-50"])
    case(cases, "float64", "float32", {"data_type": "float32", "out_of_range": "clamp"}, ["1e300", "-1e300", "3.4028235677973366e+38"])
    # narrow floats, every mode, random values around their range
    for name in FORMATS:
        largest = float(TABLES[name][-1][0])
        values = [repr(v) for v in [0.0, 1.0, -1.0, largest, -largest, largest * 1.01, largest * 4, 1e-9, -1e-9, 0.1, -0.1]]
        values += [repr(rng.uniform(-largest * 1.1, largest * 1.1)) for _ in range(24)]
        values += [repr(rng.uniform(-1, 1) * float(TABLES[name][1][0]) * 4) for _ in range(8)]
        values += ["nan", "inf", "-inf", "-0.0"]
        for mode in modes:
            for rule in (None, "clamp"):
                config = {"data_type": name, "rounding": mode}
                if rule:
                    config["out_of_range"] = rule
                case(cases, "float64", name, config, values)
        # and back: every code to float32 (exact) and to int16 (rounded)
        codes = [str(c) for c in range(256 if FORMATS[name][0] + FORMATS[name][1] < 8 or FORMATS[name][3] == "e8m0" else 0)]
        if name in ("float16", "bfloat16"):
            codes = [str(rng.randrange(65536)) for _ in range(64)] + ["0", "32768", "31744", "64512", "32256"]
        else:
            e, m, _, kind = FORMATS[name]
            codes = [str(c) for c in range(1 << (8 if kind == "e8m0" else 1 + e + m))]
        case(cases, name, "float32", {"data_type": "float32"}, codes)
        case(cases, name, "int16", {"data_type": "int16", "rounding": "nearest-even", "out_of_range": "clamp"}, codes)
    # float16 nearest-even agrees with numpy's
    xs = [rng.uniform(-70000, 70000) for _ in range(50)] + [rng.uniform(-1e-4, 1e-4) for _ in range(50)]
    for x in xs:
        h = np.float16(x)
        if np.isfinite(h):
            assert Fraction(float(h)) == to_float(Fraction(x), "float16", "nearest-even", "clamp") or (float(h) == 0)
    # 64-bit integers past 2^53
    big = ["9007199254740993", "-9223372036854775808", "9223372036854775807", "18014398509481985", "123"]
    for mode in modes:
        case(cases, "int64", "float32", {"data_type": "float32", "rounding": mode}, big)
        case(cases, "int64", "float64", {"data_type": "float64", "rounding": mode}, big)
    case(cases, "int64", "uint64", {"data_type": "uint64", "out_of_range": "wrap"}, big)
    case(cases, "int64", "int32", {"data_type": "int32", "out_of_range": "clamp"}, big)
    case(cases, "uint64", "int64", {"data_type": "int64", "out_of_range": "wrap"}, ["18446744073709551615", "9223372036854775808", "5"])
    case(cases, "float64", "int64", {"data_type": "int64", "out_of_range": "clamp"}, ["1e19", "-1e19", "9007199254740993.0", "-2.5"])
    case(cases, "float64", "uint4", {"data_type": "uint4", "out_of_range": "wrap"}, ["16.0", "17.0", "-1.0", "15.0"])
    case(cases, "float64", "int2", {"data_type": "int2", "out_of_range": "clamp"}, ["2.0", "-3.0", "1.0", "-2.0"])

    # scale_offset: (in - offset) * scale, in / scale + offset
    so = []
    def so_case(dtype, scale, offset, inputs, direction):
        out = []
        for s in inputs:
            try:
                out.append(scale_offset(dtype, scale, offset, s, direction))
            except Refused:
                out.append(None)
        conf = {}
        if scale is not None:
            conf["scale"] = scale
        if offset is not None:
            conf["offset"] = offset
        so.append({"data_type": dtype, "configuration": conf, "direction": direction, "inputs": inputs, "outputs": out})
    f32 = f32s([4392.0, 0.0, 1.0, -7.25, 65535.0, 123.456, 1e-3, rng.uniform(0, 60000), rng.uniform(0, 60000)])
    so_case("float32", 100, 250, f32, "decode")
    so_case("float32", 0.1, 5, f32 + ["nan", "inf"], "encode")
    so_case("float32", 0.1, 5, f32, "decode")
    so_case("float64", 0.1, -10, ["0.0", "2540.0", "1234.5", "nan"], "encode")
    so_case("float64", 0.1, -10, ["1.0", "255.0", "0.0"], "decode")
    so_case("uint16", None, 1000, ["1000", "1255", "999", "65535"], "encode")
    so_case("uint16", None, 1000, ["0", "255", "64536"], "decode")
    so_case("int32", 4, 3, ["3", "10", "-5"], "encode")
    so_case("int32", 4, 3, ["28", "30", "-32"], "decode")
    so_case("int64", 3, -5, ["9007199254740993", "3074457345618258597"], "encode")
    with open(OUT, "w") as f:
        json.dump({"cast_value": cases, "scale_offset": so}, f, indent=None, separators=(",", ":"))
        f.write("\n")


def scale_offset(dtype, scale, offset, s, direction):
    scale = 1 if scale is None else scale
    offset = 0 if offset is None else offset
    if dtype in INTS:
        lo, hi, _ = INTS[dtype]
        x = int(s)
        def check(v):
            if not lo <= v <= hi:
                raise Refused("range")
            return v
        if direction == "encode":
            return str(check(check(x - offset) * scale))
        if x % scale:
            raise Refused("remainder")
        return str(check(x // scale + offset))
    t = np.float32 if dtype == "float32" else np.float64
    with np.errstate(all="ignore"):
        x, sc, of = t(float(s)), t(scale), t(offset)
        if direction == "encode":
            d = t(x - of)
            r = t(d * sc)
        else:
            q = t(x / sc)
            r = t(q + of)
    if np.isinf(r) and np.isfinite(x):
        raise Refused("overflow")
    return "nan" if np.isnan(r) else "inf" if r == np.inf else "-inf" if r == -np.inf else repr(float(r))


if __name__ == "__main__":
    main()
