// Numbers and durations as the viewer prints them: for people, so a few
// significant digits rather than every digit a float64 has.

/**
 * A value of an array: integers, bigints and booleans as they are, other
 * numbers with up to 6 significant digits (trailing zeros dropped; as
 * 1.23457e+8 from a million up and below 0.0001, so that a rounded value
 * never looks like an integer), NaN and infinities by name, -0 as -0,
 * strings quoted (so an empty or space-padded one shows).
 */
export function formatValue(v) {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint" || typeof v === "boolean") return String(v);
  if (Object.is(v, -0)) return "-0";
  if (!Number.isFinite(v) || (Number.isInteger(v) && Math.abs(v) < 1e21)) return String(v);
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-4) return v.toExponential(5).replace(/\.?0+e/, "e");
  return String(Number(v.toPrecision(6)));
}

const BYTE_UNITS = [["GB", 1e9], ["MB", 1e6], ["kB", 1e3]];

/**
 * A count of bytes with 3 significant digits in the largest SI unit that
 * keeps it at 1 or more, whole bytes as they are: 812 -> "812 B",
 * 12345 -> "12.3 kB".
 */
export function formatBytes(n) {
  for (const [unit, size] of BYTE_UNITS) {
    const v = Number((n / size).toPrecision(3));
    if (v >= 1) return `${v >= 1000 ? Math.round(v) : v.toPrecision(3)} ${unit}`;
  }
  return `${n} B`;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What a read's store calls cost (diagnostics().requests()'s figures of
 * one read), in a line: "4 requests, 1.23 MB (12.0 kB over-read), 1 retry".
 * Over-read, retries and requests shared with other reads only where there
 * are any.
 */
export function formatRequests({ requests, bytes, overReadBytes, retries, sharedRequests }) {
  let text = `${plural(requests, "request")}, ${formatBytes(bytes)}`;
  if (overReadBytes > 0) text += ` (${formatBytes(overReadBytes)} over-read)`;
  if (retries > 0) text += `, ${plural(retries, "retry", "retries")}`;
  if (sharedRequests > 0) text += `, ${sharedRequests} shared with other reads`;
  return text;
}

const UNITS = [["s", 1000], ["ms", 1], ["µs", 1e-3], ["ns", 1e-6]];

/**
 * A duration in milliseconds with 3 significant digits in the largest unit
 * that keeps it at 1 or more: 0.0123 -> "12.3 µs", 4.5 -> "4.50 ms".
 */
export function formatDuration(ms) {
  if (!Number.isFinite(ms) || ms <= 0) return ms === 0 ? "0 µs" : String(ms);
  for (const [unit, size] of UNITS) {
    const v = Number((ms / size).toPrecision(3));
    if (v >= 1 || unit === "ns") return `${v >= 1000 ? Math.round(v) : v.toPrecision(3)} ${unit}`;
  }
  return String(ms);
}
