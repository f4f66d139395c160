// The viewer's number and duration formats (examples/viewer/format.js), as
// docs/viewer.md states them, on values worked by hand.
import { describe, expect, test } from "@jest/globals";
import { formatBytes, formatDuration, formatRequests, formatValue } from "../../../examples/viewer/format.js";

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

describe("formatBytes: 3 significant digits in the largest unit of 1000 that keeps the number at 1 or more", () => {
  test.each([
    [0, "0 B"],
    [812, "812 B"],
    [999, "999 B"],
    [1000, "1.00 kB"],
    [12345, "12.3 kB"],
    [999_600, "1.00 MB"], // rounds up into the next unit
    [1_234_567, "1.23 MB"],
    [2.5e9, "2.50 GB"],
  ])("%p bytes -> %p", (n, text) => expect(formatBytes(n)).toBe(text));
});

describe("formatRequests: a read's store calls in a line, over-read, retries and shared requests only where there are any", () => {
  test.each([
    [{ requests: 16, bytes: 1_234_567, overReadBytes: 0, retries: 0, sharedRequests: 0 }, "16 requests, 1.23 MB"],
    [{ requests: 1, bytes: 500, overReadBytes: 0, retries: 0, sharedRequests: 0 }, "1 request, 500 B"],
    [{ requests: 3, bytes: 40_000, overReadBytes: 1200, retries: 1, sharedRequests: 0 }, "3 requests, 40.0 kB (1.20 kB over-read), 1 retry"],
    [{ requests: 5, bytes: 0, overReadBytes: 0, retries: 2, sharedRequests: 2 }, "5 requests, 0 B, 2 retries, 2 shared with other reads"],
  ])("%p -> %p", (figures, text) => expect(formatRequests(figures)).toBe(text));
});
