// JSON.stringify for metadata the package re-serializes (withDataTypes,
// withN5), iteratively: attributes nested thousands deep, which zarrita
// reads (JSON.parse is iterative), must not overflow the stack here
// (V8's JSON.stringify recurses). Handles what JSON.parse produces, plus
// BigInt (written as its exact integer), -0 (kept) and undefined members
// (left out).

/** @param {unknown} value */
export function stringify(value) {
  const out = [];
  // Frames: an array or object being written, and where in it.
  const stack = [];
  const write = (v) => {
    if (v === null || typeof v === "boolean") {
      out.push(String(v));
    } else if (typeof v === "number") {
      // -0 as "-0.0", which JSON.parse reads back as -0 (JSON.stringify
      // writes "0": a float fill of -0 would read +0).
      out.push(Object.is(v, -0) ? "-0.0" : Number.isFinite(v) ? JSON.stringify(v) : "null");
    } else if (typeof v === "bigint") {
      out.push(v.toString());
    } else if (typeof v === "string") {
      out.push(JSON.stringify(v));
    } else if (Array.isArray(v)) {
      out.push("[");
      stack.push({ array: v, i: 0 });
    } else if (typeof v === "object") {
      out.push("{");
      stack.push({ object: v, keys: Object.keys(v), i: 0, wrote: false });
    } else {
      out.push("null"); // undefined or a function inside an array
    }
  };
  write(value);
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.array) {
      if (top.i === top.array.length) {
        out.push("]");
        stack.pop();
        continue;
      }
      if (top.i > 0) out.push(",");
      write(top.array[top.i++]);
    } else {
      if (top.i === top.keys.length) {
        out.push("}");
        stack.pop();
        continue;
      }
      const key = top.keys[top.i++];
      const v = top.object[key];
      if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
      if (top.wrote) out.push(",");
      top.wrote = true;
      out.push(JSON.stringify(key), ":");
      write(v);
    }
  }
  return out.join("");
}
