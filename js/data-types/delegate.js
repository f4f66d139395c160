// A store or array with some members overridden and the rest delegated to
// the original, called with `this` = the original (zarrita's classes keep
// private fields). Functions are bound once per member and reused, not on
// every access.
import { hasOwn } from "../errors.js";

export function delegate(target, overrides) {
  const bound = new Map();
  return new Proxy(target, {
    get(t, prop) {
      if (hasOwn(overrides, prop)) return overrides[prop];
      const value = Reflect.get(t, prop, t);
      if (typeof value !== "function") return value;
      let entry = bound.get(prop);
      if (entry?.value !== value) {
        entry = { value, bound: value.bind(t) };
        bound.set(prop, entry);
      }
      return entry.bound;
    },
    has(t, prop) {
      return hasOwn(overrides, prop) || Reflect.has(t, prop);
    },
  });
}
