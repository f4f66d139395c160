// The viewer's contrast (examples/viewer/contrast.js): the automatic window
// (percentiles as numpy computes them, Tukey's fences in small slices),
// min/max, symmetric log and its inverse, its overflow guard, and the
// sliders' exact ends.
import { describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import {
  percentile, robustWindow, sliderScale, smallestMagnitude, symexp, symlog, valueRange,
} from "../../../examples/viewer/contrast.js";
import { makeImage } from "../../../examples/sample-store.mjs";

// numpy.percentile of `values` at each of `ps` (Debian's numpy: the reference).
function numpyPercentiles(values, ps) {
  const script = "import json, sys, numpy; d = json.load(sys.stdin); print(json.dumps(numpy.percentile(numpy.array(d['v'], dtype=numpy.float64), d['p']).tolist()))";
  return JSON.parse(execFileSync("/usr/bin/python3", ["-c", script], { input: JSON.stringify({ v: Array.from(values), p: ps }), encoding: "utf8" }));
}

// The N5 fixture's float64 array: 25 finite values, two of them 1.8e308.
function fixtureFloat64() {
  const { le_hex: hex } = JSON.parse(readFileSync(new URL("../../fixtures/n5-store.n5/expected.json", import.meta.url), "utf8"))["types/float64"];
  return new Float64Array(Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16)).buffer);
}
const ascendingFinite = (values) => Float64Array.from(Array.from(values).filter(Number.isFinite)).sort();

describe("the automatic window", () => {
  test("percentiles are numpy's, value for value", () => {
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    for (const n of [1, 2, 5, 27, 200, 1001]) {
      const values = Float64Array.from({ length: n }, () => (random() - 0.3) * 1000 * random());
      const sorted = Float64Array.from(values).sort();
      const ps = [0, 0.5, 25, 50, 75, 99.5, 100];
      expect(ps.map((p) => percentile(sorted, p))).toEqual(numpyPercentiles(values, ps));
    }
  });

  test("N5 float64 (25 finite values, two 1.8e308): the fences leave the outliers out, not a black image", () => {
    const values = fixtureFloat64();
    const finite = Array.from(values).filter(Number.isFinite);
    expect(finite.length).toBe(25);
    const [p005, q1, q3, p995] = numpyPercentiles(finite, [0.5, 25, 75, 99.5]);
    expect(p995).toBeGreaterThan(1e307); // 0.5 % of 25 values is no value: the percentile is an outlier
    const want = [Math.max(p005, q1 - 3 * (q3 - q1)), Math.min(p995, q3 + 3 * (q3 - q1))];
    expect(robustWindow(ascendingFinite(values))).toEqual(want);
    // Low: the percentile, between the two smallest values (-2002.1, -1445.96).
    expect([want[0] > -2002.12, want[0] < -1445.96]).toEqual([true, true]);
    // High: the fence, above every value but the two 1.8e308s (the largest, 1618.4), not near 1e308.
    expect(want[1]).toBe(q3 + 3 * (q3 - q1));
    expect([want[1] > 1618.43, want[1] < 1e4]).toEqual([true, true]);
    expect(valueRange({ presented: "float64", stored: "float64" }, values)).toEqual(want);
    expect(valueRange({ presented: "float64", stored: "float64" }, values, "minmax")).toEqual([-2002.1189104311206, 1.7976931348623157e308]);
  });

  test("a slice of 200 values or more: the percentiles alone (a skewed image keeps its bright tail)", () => {
    // 95 % background near 100, 5 % bright cells up to 4000: the fences would cut the cells.
    const values = Float64Array.from({ length: 4000 }, (_, i) => (i % 20 === 0 ? 1000 + (i % 3000) : 100 + (i % 7)));
    expect(robustWindow(Float64Array.from(values).sort())).toEqual(numpyPercentiles(values, [0.5, 99.5]));
  });

  test("integer types: whole numbers, widened; narrow types keep their range", () => {
    const image = makeImage().subarray(0, 5000);
    const [lo, hi] = numpyPercentiles(image, [0.5, 99.5]);
    expect(valueRange({ presented: "uint16", stored: "uint16" }, image)).toEqual([Math.floor(lo), Math.ceil(hi)]);
    expect(valueRange({ presented: "uint16", stored: "uint16", bitRange: { first: 0, last: 11 } }, image)).toEqual([0, 4095]);
    expect(valueRange({ presented: "int8", stored: "int4" }, Int8Array.of(-1, 2))).toEqual([-8, 7]);
    expect(valueRange({ presented: "int8", stored: "int4" }, Int8Array.of(-1, 2), "minmax")).toEqual([-1, 2]);
    expect(valueRange({ presented: "bool", stored: "bool" }, Uint8Array.of(1, 1))).toEqual([0, 1]);
  });

  test("a window of one value widens to the extent; no finite value: [0, 1]", () => {
    // 99.7 % zeros: both percentiles are 0.
    const sparse = Float64Array.from({ length: 1000 }, (_, i) => (i % 300 === 0 ? i : 0));
    expect(numpyPercentiles(sparse, [0.5, 99.5])).toEqual([0, 0]);
    expect(robustWindow(Float64Array.from(sparse).sort())).toEqual([0, 900]);
    expect(valueRange({ presented: "float32", stored: "float32" }, Float32Array.of(NaN, Infinity))).toEqual([0, 1]);
    expect(valueRange({ presented: "float32", stored: "float32" }, Float32Array.of(3, 3, 3))).toEqual([3, 3]);
  });

  test("NaN and infinities never move it; int64 values count as numbers", () => {
    expect(valueRange({ presented: "float32", stored: "float32" }, Float32Array.of(NaN, -Infinity, 1, 2, Infinity), "minmax")).toEqual([1, 2]);
    expect(valueRange({ presented: "int64", stored: "int64" }, BigInt64Array.of(-5n, 7n), "minmax")).toEqual([-5, 7]);
  });
});

describe("symlog: sign(v) ln(1 + |v| / C)", () => {
  test("odd, about linear within ±C, logarithmic beyond", () => {
    expect(symlog(0, 1)).toBe(0);
    expect(symlog(-3, 0.5)).toBe(-symlog(3, 0.5));
    expect(symlog(1e-6, 1)).toBeCloseTo(1e-6, 12); // ln(1 + x) ~ x for small x
    expect(symlog(Math.E - 1, 1)).toBeCloseTo(1, 15);
  });

  test("where |v| / C overflows it is ln|v| - ln C, finite", () => {
    const t = symlog(1e308, 5e-324);
    expect(Number.isFinite(t)).toBe(true);
    expect(t).toBe(Math.log(1e308) - Math.log(5e-324));
  });

  test.each([[240, 2 ** -9], [-0.5, 2 ** -9], [1e300, 5e-324], [-2002.5, 5e-324]])("symexp undoes symlog for %p (C = %p)", (v, c) => {
    expect(symexp(symlog(v, c), c) / v).toBeCloseTo(1, 9);
  });
});

test("symlog's C by default: the smallest non-zero magnitude, 1 where there is none", () => {
  expect(smallestMagnitude(new Float32Array([0, -0.25, 4, NaN, 0.5]))).toBe(0.25);
  expect(smallestMagnitude(new Float32Array([0, 0]))).toBe(1);
});

describe("sliders", () => {
  test("linear over a narrow integer range: one step per value, exact ends", () => {
    const s = sliderScale("linear", [-8, 7], { integer: true, c: 1 });
    expect(s.steps).toBe(15);
    expect([0, 4, 15].map(s.valueAt)).toEqual([-8, -4, 7]);
  });

  test("symlog: 1000 steps even in T, exact ends, the middle of a symmetric range at 0", () => {
    const s = sliderScale("symlog", [-240, 240], { integer: false, c: 2 ** -9 });
    expect(s.steps).toBe(1000);
    expect(s.valueAt(0)).toBe(-240);
    expect(s.valueAt(1000)).toBe(240);
    expect(s.valueAt(500)).toBe(0);
    // a quarter of the way in T: the value whose symlog is half of -T(240)
    expect(symlog(s.valueAt(250), 2 ** -9)).toBeCloseTo(-symlog(240, 2 ** -9) / 2, 9);
  });
});
