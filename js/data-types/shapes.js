// Shapes in metadata withDataTypes presents: checked once, with the
// trailing dimension of complex, raw and record types appended, and shown
// in messages without walking anything nested (hostile metadata can nest
// arrays thousands deep).
import { describe, invalidMetadata } from "../errors.js";

const MAX_ELEMENTS = 2 ** 53 - 1;

/** Up to eight entries of an array, each a number or described. */
function showShape(shape) {
  const shown = shape.slice(0, 8).map((d) => (typeof d === "number" ? String(d) : describe(d)));
  return `[${shown.join(", ")}${shape.length > 8 ? ", ..." : ""}]`;
}

/** A shape: non-negative safe integers (positive for chunk shapes). */
export function checkShape(where, what, shape, { positive = false, rank } = {}) {
  const ok =
    Array.isArray(shape) &&
    shape.length <= 64 &&
    shape.every((d) => Number.isSafeInteger(d) && (positive ? d > 0 : d >= 0));
  if (!ok) {
    throw invalidMetadata(
      where,
      `${what} must be an array of ${positive ? "positive" : "non-negative"} integers, got ${describe(shape)}${Array.isArray(shape) ? ` ${showShape(shape)}` : ""}`,
    );
  }
  if (rank !== undefined && shape.length !== rank) {
    throw invalidMetadata(where, `${what} has ${shape.length} dimensions, but the array has ${rank}`);
  }
  let elements = 1;
  for (const d of shape) elements *= d;
  if (elements > MAX_ELEMENTS) throw invalidMetadata(where, `${what} ${showShape(shape)} has more than 2^53 elements`);
  return elements;
}

/** The shape with the trailing dimension, still addressable. */
export function withTrailing(where, what, shape, trailing) {
  if (!trailing) return shape;
  const out = [...shape, trailing];
  checkShape(where, `${what} with the trailing dimension`, out);
  return out;
}
