// JSON.parse, except that integers beyond 2^53 come back as BigInt instead
// of the nearest double. datetime64 fill values are int64 counts that JSON
// holds exactly (1700000000000000001, or NaT as -9223372036854775808) and
// JSON.parse would round; a missing chunk must read the exact fill. Only
// metadata that has such a number is parsed here (it is rare and small).
// Iterative, so nesting of any depth (in attributes, say) parses as
// JSON.parse does, without exhausting the stack.
//
// With { floats: true } it also says which integral numbers were written
// as floats ("1000000.0", "1e6"): Python's json writes a float so, and
// numcodecs' arithmetic types a float scalar otherwise than an int one
// (numpy's value-based promotion), which JSON.parse cannot tell apart.

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * On an object or array parsed with { floats: true }: the keys (indices)
 * of its integral numbers that were written as floats. An own enumerable
 * symbol, so that a copy by spread or rest keeps it and JSON.stringify
 * does not see it.
 */
export const WRITTEN_AS_FLOAT = Symbol("zarr-codecs-wasm written as float");

/** Whether `container[key]` is an integral number written as a float (parseLossless { floats: true }). */
export function writtenAsFloat(container, key) {
  return Boolean(container?.[WRITTEN_AS_FLOAT]?.includes(key));
}

/** Whether JSON.parse rounded some integer in `value` (iteratively). */
export function hasUnsafeIntegers(value) {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "number") {
      if (Number.isInteger(v) && !Number.isSafeInteger(v)) return true;
    } else if (v !== null && typeof v === "object") {
      for (const item of Object.values(v)) stack.push(item);
    }
  }
  return false;
}

/**
 * Parses JSON text as JSON.parse does, but with integers outside the safe
 * range as BigInt; with `floats`, marks integral numbers written as
 * floats (WRITTEN_AS_FLOAT).
 * @param {string} text
 * @param {{floats?: boolean}} [options]
 */
export function parseLossless(text, options) {
  const markFloats = options?.floats === true;
  let floatText = false;
  let at = 0;
  const fail = () => {
    throw new SyntaxError(`JSON: unexpected input at position ${at}`);
  };
  const skip = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.exec(text);
    at = WHITESPACE.lastIndex;
  };
  const match = (re) => {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) fail();
    at = re.lastIndex;
    return m;
  };
  const scalar = () => {
    const c = text[at];
    if (c === '"') return JSON.parse(match(STRING)[0]);
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, at)) return (at += word.length), v;
    }
    const m = match(NUMBER);
    const n = Number(m[0]);
    floatText = Boolean(m[2] || m[3]) && Number.isInteger(n);
    return !m[2] && !m[3] && !Number.isSafeInteger(n) ? BigInt(m[0]) : n;
  };
  // Open containers: { value, key } (key: the member being read, objects only).
  const stack = [];
  let result;
  let done = false;
  // Reads one value's start: a scalar (returned) or an opened container.
  const begin = () => {
    skip();
    const c = text[at];
    if (c === "{" || c === "[") {
      at++;
      stack.push({ value: c === "{" ? {} : [], key: undefined });
      return undefined;
    }
    return { v: scalar() };
  };
  // Puts a finished value into the container on top (or the result).
  const put = (v) => {
    const top = stack[stack.length - 1];
    if (!top) {
      result = v;
      done = true;
      return;
    }
    const key = Array.isArray(top.value) ? top.value.length : top.key;
    if (Array.isArray(top.value)) top.value.push(v);
    else Object.defineProperty(top.value, key, { value: v, enumerable: true, writable: true, configurable: true });
    if (markFloats && floatText && typeof v === "number") (top.value[WRITTEN_AS_FLOAT] ??= []).push(key);
    floatText = false;
  };
  let first = begin();
  if (first) put(first.v);
  let fresh = true; // the top container has read nothing yet
  while (!done) {
    const top = stack[stack.length - 1];
    const isArray = Array.isArray(top.value);
    skip();
    if (fresh && text[at] === (isArray ? "]" : "}")) {
      at++;
      stack.pop();
      put(top.value);
      fresh = false;
      continue;
    }
    if (!fresh) {
      const next = text[at++];
      if (next === (isArray ? "]" : "}")) {
        stack.pop();
        put(top.value);
        continue;
      }
      if (next !== ",") fail();
      skip();
    }
    if (!isArray) {
      top.key = JSON.parse(match(STRING)[0]);
      skip();
      if (text[at++] !== ":") fail();
    }
    const item = begin();
    if (item) {
      put(item.v);
      fresh = false;
    } else {
      fresh = true;
    }
  }
  skip();
  if (at !== text.length) fail();
  return result;
}
