// How the JS fuzzers judge an outcome: the package's error (with a code),
// an error zarrita raises itself, or a failure of ours (a TypeError or
// RangeError thrown from the package's own code, a hang).
import { ZarrCodecError } from "../../../js/index.js";

export const OUTCOMES = [
  "read as the seed", "read", "opened, not read (a grid zarrita cannot walk)", "package error", "zarrita error",
  "package TypeError or RangeError", "hang", "wrong value", "prototype polluted",
];

const PACKAGE_CODE = /\/js\/(codecs|compressors|data-types|fills|json|n5|pool|read|records|types|wasm|zarrita)\/|\/js\/(errors|widen|index|slim|exports)\.js/;

/** The outcome an error stands for. */
export function classify(error) {
  if (error?.message === "fuzz: timed out") return "hang";
  for (let e = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e instanceof ZarrCodecError) return "package error";
  }
  // The first frame of the stack says whose code threw.
  const frame = String(error?.stack ?? "").split("\n").find((line) => line.trim().startsWith("at "));
  if ((error instanceof TypeError || error instanceof RangeError) && frame && PACKAGE_CODE.test(frame) && !frame.includes("node_modules")) {
    return "package TypeError or RangeError";
  }
  return "zarrita error";
}

/** Object.prototype's own keys, as one string (pollution changes it). */
export function protoKeys() {
  return Object.getOwnPropertyNames(Object.prototype).sort().join(",") + Object.getOwnPropertyNames(Array.prototype).length;
}

/** `promise`, or a "timed out" error after `ms`. */
export function withTimeout(promise, ms) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("fuzz: timed out")), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
