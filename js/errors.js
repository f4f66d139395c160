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

/** Throws the error a status from the core describes, if any. */
export function throwIfFailed(outcome) {
  if (outcome.code !== "OK") {
    throw new ZarrCodecError(outcome.code, outcome.message);
  }
  return outcome;
}

/** "a Uint8Array", "an Int16Array". */
export function withArticle(name) {
  // "Uint" is said "you-int": a Uint8Array.
  return `${/^[AEIO]/.test(name) ? "an" : "a"} ${name}`;
}

/** A short, bounded description of any value, for messages. */
export function describe(value) {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return `an Array of length ${value.length}`;
  const name = value.constructor?.name;
  return name && name !== "Object" ? withArticle(name) : "an object";
}
