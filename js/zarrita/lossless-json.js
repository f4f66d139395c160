// JSON.parse, except that integers beyond 2^53 come back as BigInt instead
// of the nearest double. datetime64 fill values are int64 counts that JSON
// holds exactly (1700000000000000001, or NaT as -9223372036854775808) and
// JSON.parse would round; a missing chunk must read the exact fill. Only
// metadata that has such a number is parsed here (it is rare and small).

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** Whether JSON.parse would round some integer of `text`. */
export function hasUnsafeIntegers(value) {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value !== null && typeof value === "object") {
    return Object.values(value).some(hasUnsafeIntegers);
  }
  return false;
}

/**
 * Parses JSON text as JSON.parse does, but with integers outside the safe
 * range as BigInt.
 * @param {string} text
 */
export function parseLossless(text) {
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
  function value() {
    skip();
    const c = text[at];
    if (c === "{") {
      at++;
      const out = {};
      skip();
      if (text[at] === "}") return at++, out;
      for (;;) {
        skip();
        const key = JSON.parse(match(STRING)[0]);
        skip();
        if (text[at++] !== ":") fail();
        out[key] = value();
        skip();
        const next = text[at++];
        if (next === "}") return out;
        if (next !== ",") fail();
      }
    }
    if (c === "[") {
      at++;
      const out = [];
      skip();
      if (text[at] === "]") return at++, out;
      for (;;) {
        out.push(value());
        skip();
        const next = text[at++];
        if (next === "]") return out;
        if (next !== ",") fail();
      }
    }
    if (c === '"') return JSON.parse(match(STRING)[0]);
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, at)) return (at += word.length), v;
    }
    const m = match(NUMBER);
    const n = Number(m[0]);
    return !m[2] && !m[3] && !Number.isSafeInteger(n) ? BigInt(m[0]) : n;
  }
  const out = value();
  skip();
  if (at !== text.length) fail();
  return out;
}
