// One rounding to a narrow grid serves two callers (js/floats/rounding.js):
// a number fill (fills/float-fill.js) and cast_value's "nearest-even"
// (array-to-array/numeric-cast.js). Where their rules agree (a value
// within the format's range, every format but float8_e8m0fnu) both give
// the scalar reference's code (tests/js/support/narrow-float-reference.js:
// exact rationals from the formats' definitions, checked against numpy
// for float16 in narrow-fill-rounding.test.js) on the probes that tell
// roundings apart. Where the rules differ, each caller keeps its own, and
// the difference is pinned here by hand-worked cases.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { ready } from "../../../js/index.js";
import { CastValueCodec } from "../../../js/array-to-array/cast-value.js";
import { storedFill } from "../../../js/fills/stored-fill.js";
import { parseDataType } from "../../../js/types/data-type.js";
import { FORMATS, narrowReference, positiveValues, roundingProbes, valueOfCode } from "../support/narrow-float-reference.js";

beforeAll(() => ready()); // storedFill parses the data type in the core

const fillCode = (name, fill) => {
  const bytes = storedFill("test", parseDataType("test", name), fill);
  return bytes.length === 2 ? bytes[0] | (bytes[1] << 8) : bytes[0];
};

/** cast_value's encode of `xs` (float64, or float32 where `viaFloat32`) to `name`, nearest-even. */
function castCodes(name, xs, source) {
  const codec = new CastValueCodec({ data_type: name, rounding: "nearest-even" }, { dataType: source });
  const data = source === "float32" ? Float32Array.from(xs) : Float64Array.from(xs);
  return Array.from(codec.encode({ data, shape: [xs.length], stride: [1] }).data);
}

const WITHIN_RANGE = Object.keys(FORMATS).filter((name) => name !== "float32" && name !== "float8_e8m0fnu");

describe.each(WITHIN_RANGE)("%s: a fill and cast_value round alike, as the reference", (name) => {
  // bfloat16's writer (Eigen) rounds a double through float32; cast_value
  // rounds once from its source: from float32 sources the two are one rounding.
  const source = FORMATS[name].viaFloat32 ? "float32" : "float64";
  const values = positiveValues(name);
  const largest = valueOfCode(name, values[values.length - 1].code);
  const xs = roundingProbes(name).filter((x) => Math.abs(x) <= largest && (source === "float64" || Math.fround(x) === x));

  test("probes within range: every code is the reference's", () => {
    expect(xs.length).toBeGreaterThan(20);
    const want = xs.map((x) => narrowReference(name, x));
    expect(castCodes(name, xs, source)).toEqual(want);
    expect(xs.map((x) => fillCode(name, x))).toEqual(want);
  });
});

describe("where the rules differ, each caller keeps its own", () => {
  test("float8_e8m0fnu: 3 (halfway between 2 and 4) is 4 as a fill (ml_dtypes rounds halfway up), 2 through cast_value (ties to the even code, 0x80)", () => {
    expect(fillCode("float8_e8m0fnu", 3)).toBe(0x81);
    expect(narrowReference("float8_e8m0fnu", 3)).toBe(0x81);
    expect(castCodes("float8_e8m0fnu", [3], "float64")).toEqual([0x80]);
    // 6 lies between 4 (0x81) and 8 (0x82): both take 8 (ties up; 0x82 is even)
    expect(fillCode("float8_e8m0fnu", 6)).toBe(0x82);
    expect(castCodes("float8_e8m0fnu", [6], "float64")).toEqual([0x82]);
  });

  test("past the largest value: a fill takes the writer's overflow (NaN for fnuz), cast_value an error or, clamped, the largest value", () => {
    expect(fillCode("float8_e4m3fnuz", 1e6)).toBe(0x80);
    expect(() => castCodes("float8_e4m3fnuz", [1e6], "float64")).toThrow(expect.objectContaining({ code: "VALUE_OUT_OF_RANGE" }));
    const clamped = new CastValueCodec({ data_type: "float8_e4m3fnuz", out_of_range: "clamp" }, { dataType: "float64" });
    expect(Array.from(clamped.encode({ data: Float64Array.of(1e6, -1e6), shape: [2], stride: [1] }).data)).toEqual([0x7f, 0xff]);
  });
});
