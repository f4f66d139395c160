// The viewer's number and duration formats (examples/viewer/format.js), as
// docs/viewer.md states them, on values worked by hand.
import { describe, expect, test } from "@jest/globals";
import { formatDuration, formatValue } from "../../../examples/viewer/format.js";

describe("formatDuration: 3 significant digits in the largest unit that keeps the number at 1 or more", () => {
  test.each([
    [0.0123, "12.3 µs"],
    [0.00004, "40.0 ns"],
    [0.5, "500 µs"],
    [4.5, "4.50 ms"],
    [0.99951, "1.00 ms"], // rounds up into the next unit
    [12.345, "12.3 ms"],
    [1500, "1.50 s"],
    [0, "0 µs"],
  ])("%p ms -> %p", (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe("formatValue: integers whole, other numbers with up to 6 significant digits", () => {
  test.each([
    [4095, "4095"],
    [-8, "-8"],
    [-0, "-0"],
    [0.578125, "0.578125"],
    [1 / 3, "0.333333"],
    [2 ** -9, "0.00195313"],
    [123456789.5, "1.23457e+8"], // never shown as if it were an integer
    [5e-324, "4.94066e-324"],
    [NaN, "NaN"],
    [-Infinity, "-Infinity"],
    [9007199254740993n, "9007199254740993"],
    [true, "true"],
    ["", '""'],
    ["🦠 virus", '"🦠 virus"'],
  ])("%p -> %p", (v, text) => expect(formatValue(v)).toBe(text));
});
