// The viewer's contrast scales (examples/viewer/contrast.js): symmetric
// log and its inverse, its overflow guard, and the sliders' exact ends.
import { describe, expect, test } from "@jest/globals";
import { sliderScale, smallestMagnitude, symexp, symlog } from "../../../examples/viewer/contrast.js";

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
