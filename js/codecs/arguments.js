// JavaScript values -> the core's constructor arguments (bindings/
// arguments.h): configuration objects as Zarr metadata has them, and chunk
// shapes, checked here, once, when a codec is constructed. Only strings and
// numbers cross into wasm, each bounded, so nothing a caller passes can
// run JavaScript (a getter, a Proxy trap) while a wasm frame is on the
// stack, or grow wasm memory with a huge string. Semantic checks (bit
// ranges, endian values, sizes) stay in the core, beside the code they
// protect.
import { describe, hasOwn, isPlainObject, ZarrCodecError } from "../errors.js";

// Strings longer than this never reach wasm: no configuration value of
// the specs comes near it.
const MAX_TEXT = 64;

/**
 * Reads `value`'s own enumerable members into a plain object, so later
 * reads run no caller code; a getter or Proxy trap that throws becomes
 * the package's error.
 */
function snapshot(codec, what, value, code) {
  try {
    const out = {};
    for (const key of Object.keys(value)) out[key] = value[key];
    return out;
  } catch (cause) {
    throw new ZarrCodecError(code, `${codec}: reading ${what} failed (${describe(cause?.message ?? cause)})`, { cause });
  }
}

// `test(value)`, false where asking throws (a revoked Proxy, a throwing
// trap): the question is then answered no, and the caller's message says
// what was expected.
function holds(test, value) {
  try {
    return test(value);
  } catch {
    return false;
  }
}

/**
 * A configuration: absent (undefined or null: the defaults) or an object
 * whose members are all in `members`. An unknown member (a typo such as
 * "endianness") is an error naming what is allowed.
 * @returns {Record<string, unknown>}
 */
export function configurationOf(codec, configuration, members, expected) {
  if (configuration === undefined || configuration === null) return {};
  if (!holds(isPlainObject, configuration)) {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `${codec}: configuration must be an object, got ${describe(configuration)}`);
  }
  const config = snapshot(codec, "the configuration", configuration, "INVALID_CONFIGURATION");
  for (const key of Object.keys(config)) {
    if (!members.includes(key)) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${codec}: unknown configuration member ${describe(key)} ${expected}`);
    }
  }
  return config;
}

/** A string member: "" where absent (undefined or null). */
export function optionalText(codec, name, value, expected) {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string" || value === "") {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `${codec}: ${name} must be ${expected}, got ${describe(value)}`);
  }
  // Longer than any valid value: refused here with the core's message
  // shape, without sending it to wasm.
  return value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) + "…" : value;
}

/** A bit index: NaN where absent (undefined or null), else an integer. */
export function optionalBitIndex(name, value) {
  if (value === undefined || value === null) return NaN;
  if (typeof value !== "number") {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `packbits: ${name} must be an integer or null, got ${describe(value)}`);
  }
  if (!Number.isSafeInteger(value)) {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `packbits: ${name} must be an integer, got ${value}`);
  }
  return value;
}

/**
 * A chunk shape, as the core's text "4,4": an Array of at most 64
 * non-negative integers below 2^53.
 * @returns {{dims: number[], text: string}}
 */
export function shapeOf(codec, shape) {
  if (!holds(Array.isArray, shape)) {
    throw new ZarrCodecError("INVALID_SHAPE", `${codec}: meta.shape must be an array of non-negative integers, got ${describe(shape)}`);
  }
  let dims;
  try {
    const rank = shape.length;
    if (rank > 64) {
      // numpy's limit too; a longer list is not a chunk shape.
      throw new ZarrCodecError("INVALID_SHAPE", `${codec}: meta.shape has ${rank} dimensions; at most 64 are supported`);
    }
    dims = Array.from({ length: rank }, (_, i) => shape[i]);
  } catch (cause) {
    if (cause instanceof ZarrCodecError) throw cause;
    throw new ZarrCodecError("INVALID_SHAPE", `${codec}: reading meta.shape failed (${describe(cause?.message ?? cause)})`, { cause });
  }
  for (const d of dims) {
    if (typeof d !== "number") {
      throw new ZarrCodecError("INVALID_SHAPE", `${codec}: meta.shape must hold numbers, got ${describe(d)}`);
    }
  }
  if (!dims.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new ZarrCodecError("INVALID_SHAPE", `${codec}: shape must hold non-negative integers, got [${dims.join(", ")}]`);
  }
  return { dims, text: dims.join(",") };
}

/**
 * fromConfig's third argument, `{ floats }`: how narrow floats (float16,
 * bfloat16, float8_*, float6_*, float4_e2m1fn and their complex forms)
 * decode and encode, "bits" (the default: their bit patterns) or "float32"
 * (widened exactly, as withDataTypes presents them). Other data types are
 * unaffected, so one options object fits every codec of a store.
 * @returns {{floats: "bits" | "float32"}}
 */
export function codecOptions(codec, options) {
  if (options === undefined || options === null) return { floats: "bits" };
  if (!holds(isPlainObject, options)) {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `${codec}: options must be an object { floats }, got ${describe(options)}`);
  }
  const read = snapshot(codec, "the options", options, "INVALID_CONFIGURATION");
  for (const key of Object.keys(read)) {
    if (key !== "floats") {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${codec}: unknown option ${describe(key)} (expected floats)`);
    }
  }
  const floats = read.floats ?? "bits";
  if (floats !== "bits" && floats !== "float32") {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `${codec}: floats must be "float32" or "bits", got ${describe(floats)}`);
  }
  return { floats };
}

/** meta, read once: any object whose members can be read without throwing. */
export function metaOf(codec, meta) {
  if (!holds(isPlainObject, meta)) {
    throw new ZarrCodecError("INVALID_METADATA", `${codec}: meta must be an object { dataType, shape }, got ${describe(meta)}`);
  }
  const out = {};
  for (const key of ["dataType", "data_type", "shape", "fillValue"]) {
    try {
      if (hasOwn(meta, key) || key in meta) out[key] = meta[key];
    } catch (cause) {
      throw new ZarrCodecError("INVALID_METADATA", `${codec}: reading meta.${key} failed (${describe(cause?.message ?? cause)})`, { cause });
    }
  }
  return out;
}
