// A number fill of a narrow float rounds once, as its writer rounds it:
// float16 straight from the double (numpy's npy_double_to_half: the
// expected codes come from Debian's numpy), bfloat16 through float32 as
// Eigen's bfloat16 does, the float8/float6/float4 formats straight from
// the double as ml_dtypes' scalar constructor does (the expected codes
// come from tests/js/support/narrow-float-reference.js, exact rational
// arithmetic written from the formats' definitions and ml_dtypes' source).
// The cases are the ones double rounding gets wrong: midpoints between
// neighbouring values and one double ulp either side, values that round
// to subnormals and to zero, the overflow threshold; each with both signs.
// Complex forms round each part by the same rule.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { ready } from "../../../js/index.js";
import { storedFill } from "../../../js/fills/stored-fill.js";
import { parseDataType } from "../../../js/types/data-type.js";
import { FORMATS, narrowReference, nextDouble, roundingProbes, valueOfCode } from "../support/narrow-float-reference.js";

beforeAll(async () => {
  await ready();
});

/** The code storedFill writes for a fill of `name` (one component). */
function fillCode(name, fill) {
  const bytes = storedFill("test", parseDataType("test", name), fill);
  return bytes.length === 2 ? bytes[0] | (bytes[1] << 8) : bytes[0];
}

// Each probe is a JSON number fill, as JSON.parse (or the package's
// lossless parser) gives it: the double.
const NARROW = Object.keys(FORMATS).filter((name) => name !== "float32" && name !== "float16");

describe("float16: numpy's rounding of the double (npy_double_to_half)", () => {
  const xs = roundingProbes("float16");
  let numpyCodes;
  beforeAll(() => {
    // The doubles travel as their bit patterns, so nothing rounds them on the way.
    const view = new DataView(new ArrayBuffer(8));
    const bits = xs.map((x) => {
      view.setFloat64(0, x);
      return view.getBigUint64(0).toString(16).padStart(16, "0");
    });
    const script =
      "import json, struct, sys, warnings\nimport numpy as np\nwarnings.simplefilter('ignore')\n" +
      "xs = [struct.unpack('>d', bytes.fromhex(h))[0] for h in json.load(sys.stdin)]\n" +
      "print(json.dumps([int(np.float16(x).view(np.uint16)) for x in xs]))";
    numpyCodes = JSON.parse(execFileSync("/usr/bin/python3", ["-c", script], { input: JSON.stringify(bits), encoding: "utf8" }));
  });

  test(`${xs.length} probes: every code is numpy's`, () => {
    const wrong = xs.map((x, i) => [x, fillCode("float16", x), numpyCodes[i]]).filter(([, got, want]) => got !== want);
    expect(wrong).toEqual([]);
  });

  test("1.0004882812509095 (just above 1 + 2^-11) is 0x3c01, where rounding through float32 gave 0x3c00", () => {
    const script = "import numpy as np; print(int(np.float16(1.0004882812509095).view(np.uint16)))";
    expect(Number(execFileSync("/usr/bin/python3", ["-c", script], { encoding: "utf8" }))).toBe(0x3c01);
    expect(fillCode("float16", 1.0004882812509095)).toBe(0x3c01);
  });

  test("the reference agrees with numpy on every probe (so the other formats' reference is checked too)", () => {
    const wrong = xs.map((x, i) => [x, narrowReference("float16", x), numpyCodes[i]]).filter(([, got, want]) => got !== want);
    expect(wrong).toEqual([]);
  });
});

describe.each(NARROW)("%s: as ml_dtypes rounds a Python float", (name) => {
  const xs = roundingProbes(name).filter((x) => Number.isFinite(x));

  test("every probe's code is the reference's", () => {
    const wrong = xs.map((x) => [x, fillCode(name, x), narrowReference(name, x)]).filter(([, got, want]) => got !== want);
    expect(wrong).toEqual([]);
  });
});

describe("bfloat16 rounds through float32, as Eigen's bfloat16(double) does", () => {
  // 1 + 2^-8 is the midpoint of bfloat16's 1 and 1 + 2^-7; a double just
  // above it rounds to that midpoint in float32, which then ties to the
  // even 1.0 (0x3f80). Rounded once it would be 0x3f81.
  test("1 + 2^-8 + 2^-40 is 0x3f80", () => {
    const x = 1 + 2 ** -8 + 2 ** -40;
    expect(narrowReference("bfloat16", x)).toBe(0x3f80);
    expect(fillCode("bfloat16", x)).toBe(0x3f80);
    expect(fillCode("bfloat16", 1 + 2 ** -8 + 2 ** -20)).toBe(0x3f81); // float32 keeps it above the midpoint
  });
});

describe("past the largest value: what the writers give", () => {
  test.each([
    ["float16", 65520, 0x7c00], // numpy: inf (with an overflow warning)
    ["float16", -1e300, 0xfc00],
    ["bfloat16", 1e300, 0x7f80], // float32 overflows to inf
    ["float8_e4m3", 1e6, 0x78], // infinity
    ["float8_e5m2", -1e6, 0xfc],
    ["float8_e4m3fnuz", 1e6, 0x80], // NaN: the format has no infinity
    ["float8_e4m3fnuz", -1e6, 0x80],
    ["float8_e8m0fnu", 2 ** 128, 0xff], // NaN
    ["float6_e2m3fn", 100, 0x1f], // ml_dtypes saturates: 7.5
    ["float4_e2m1fn", -100, 0xf], // -6
  ])("%s %d -> %i", (name, x, code) => {
    expect(narrowReference(name, x)).toBe(code);
    expect(fillCode(name, x)).toBe(code);
  });

  test("float8_e8m0fnu: zero and negative numbers are NaN (0xFF), as ml_dtypes gives", () => {
    for (const x of [0, -0, -1, -(2 ** -127)]) {
      expect(narrowReference("float8_e8m0fnu", x)).toBe(0xff);
      expect(fillCode("float8_e8m0fnu", x)).toBe(0xff);
    }
  });
});

describe("signed zeros, NaN and hex codes stay exact", () => {
  test.each([
    ["float16", -0, 0x8000],
    ["float16", -1e-10, 0x8000], // rounds to -0
    ["bfloat16", -0, 0x8000],
    ["float8_e4m3", -0, 0x80],
    ["float8_e4m3fnuz", -0, 0x00], // no -0
    ["float8_e4m3fnuz", -1e-10, 0x00],
    ["float4_e2m1fn", -0, 0x8],
  ])("%s %d -> %i", (name, x, code) => {
    expect(fillCode(name, x)).toBe(code);
  });

  test.each([
    ["float16", "0x7e01", 0x7e01],
    ["float16", "0x8000", 0x8000],
    ["bfloat16", "0x7fc1", 0x7fc1],
    ["float8_e5m2", "0x7f", 0x7f],
    ["float4_e2m1fn", "0x8", 0x8],
    ["float16", "NaN", 0x7e00],
    ["bfloat16", "NaN", 0x7fc0],
    ["float8_e4m3fnuz", "NaN", 0x80],
    ["float16", "-Infinity", 0xfc00],
  ])("%s %s -> %i", (name, fill, code) => {
    expect(fillCode(name, fill)).toBe(code);
  });
});

describe("complex forms round each part by the part's rule", () => {
  const parts = (name, fill) => {
    const bytes = storedFill("test", parseDataType("test", name), fill);
    const half = bytes.length / 2;
    const code = (b) => (b.length === 2 ? b[0] | (b[1] << 8) : b.length === 4 ? new DataView(b.buffer, b.byteOffset).getUint32(0, true) : b[0]);
    return [code(bytes.subarray(0, half)), code(bytes.subarray(half))];
  };

  test("complex_float16: each part as numpy's float16", () => {
    const x = 1.0004882812509095;
    expect(parts("complex_float16", [x, -x])).toEqual([0x3c01, 0xbc01]);
  });

  test("complex_bfloat16 and complex_float8_e4m3: each part as its format", () => {
    const x = 1 + 2 ** -8 + 2 ** -40;
    expect(parts("complex_bfloat16", [x, 1e300])).toEqual([narrowReference("bfloat16", x), 0x7f80]);
    const mid = (valueOfCode("float8_e4m3", 0x39) + valueOfCode("float8_e4m3", 0x3a)) / 2;
    const above = nextDouble(mid, 1);
    expect(parts("complex_float8_e4m3", [mid, above])).toEqual([narrowReference("float8_e4m3", mid), narrowReference("float8_e4m3", above)]);
    expect(narrowReference("float8_e4m3", above)).toBe(0x3a);
  });

  test("complex64: each part as numpy.complex64 rounds it", () => {
    const re = 1 + 2 ** -24 + 2 ** -60; // just above float32's midpoint
    const im = -(1 + 2 ** -24); // a tie: to even
    const script = `import numpy as np; z = np.complex64(complex(${re.toPrecision(17)}, ${im.toPrecision(17)})); print(int(np.float32(z.real).view(np.uint32)), int(np.float32(z.imag).view(np.uint32)))`;
    const want = execFileSync("/usr/bin/python3", ["-c", script], { encoding: "utf8" }).trim().split(" ").map(Number);
    expect(parts("complex64", [re, im])).toEqual(want);
  });
});
