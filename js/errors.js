// The package's one error class, and what every message is built from:
// short, bounded descriptions of any value (descriptions never throw, even
// for a Proxy or a revoked one).

/**
 * The one error class the package throws. `code` is stable and machine
 * readable; the message names what was expected and what was found.
 */
export class ZarrCodecError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {ErrorOptions} [options]
   */
  constructor(code, message, options) {
    super(message, options);
    this.name = "ZarrCodecError";
    this.code = code;
  }
}

/** Metadata its spec forbids: `${where}: ${message}`. */
export function invalidMetadata(where, message) {
  return new ZarrCodecError("INVALID_METADATA", `${where}: ${message}`);
}

/** "[object Uint8Array]" -> "Uint8Array": realm-independent. */
export function tagOf(value) {
  return Object.prototype.toString.call(value).slice(8, -1);
}

/** An object that is not an array (JSON's objects). */
export function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether `object` has `key` of its own (not one of Object.prototype's). */
export function hasOwn(object, key) {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** "a Uint8Array", "an Int16Array". */
export function withArticle(name) {
  // "Uint" is said "you-int": a Uint8Array.
  return `${/^[AEIO]/.test(name) ? "an" : "a"} ${name}`;
}

/** At most `max` code points of `text` (never half a surrogate pair). */
export function prefix(text, max) {
  if (text.length <= max) return text;
  return Array.from(text.slice(0, 2 * max)).slice(0, max).join("");
}

/** A short, bounded description of any value, for messages. */
export function describe(value) {
  try {
    if (value === null) return "null";
    if (value === undefined) return "undefined";
    if (typeof value === "string") return JSON.stringify(prefix(value, 40));
    if (typeof value === "bigint") return `${value}n`;
    if (typeof value === "symbol") return String(value);
    if (typeof value === "function") return "a function";
    if (typeof value !== "object") return String(value);
    if (Array.isArray(value)) return `an Array of length ${value.length}`;
    const name = Object.getPrototypeOf(value) === null ? undefined : value.constructor?.name;
    return typeof name === "string" && name && name !== "Object" ? withArticle(name) : "an object";
  } catch {
    return "an object";
  }
}

/**
 * What a thrown value says (its message, or a description of it), bounded
 * and never throwing: for messages that quote a foreign error they wrap.
 */
export function messageOf(error) {
  try {
    const message = typeof error === "string" ? error : error instanceof Error ? error.message : undefined;
    return typeof message === "string" ? prefix(message, 200) : describe(error);
  } catch {
    return "an error that could not be read";
  }
}

/**
 * Where a store is, for messages: its URL (FetchStore's `url`) or folder
 * (FileSystemStore's `root`); undefined for a store that says neither.
 * @param {unknown} store
 */
export function storePlace(store) {
  try {
    const base = store?.url ?? store?.root;
    // A URL (of any realm) by its href.
    const text = typeof base === "string" ? base : typeof base?.href === "string" ? base.href : undefined;
    return text ? prefix(text, 256) : undefined;
  } catch {
    return undefined; // a store whose members throw: not named
  }
}

/**
 * An array as messages name it: its path ("/a/b"); the root's, which says
 * nothing by itself ("/"), with where its store is (storePlace):
 * "/ of https://example.com/data.zarr".
 * @param {unknown} path the array's path ("" and "/" are the root)
 * @param {unknown} [store] the store it was opened from
 */
export function arrayName(path, store) {
  const shown = typeof path === "string" ? prefix(path, 256) : "";
  if (shown !== "" && shown !== "/") return shown;
  const place = storePlace(store);
  return place === undefined ? "/" : `/ of ${place}`;
}
