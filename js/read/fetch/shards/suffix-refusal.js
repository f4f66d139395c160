// A server that does not take suffix ranges (`Range: bytes=-n`) may answer
// one with 416 (Range Not Satisfiable): RFC 9110 has a suffix longer than
// the file answered with the whole file, so a 416 to a shard index's
// suffix says the server does not know the form, not that the shard is
// short. zarrita's FetchStore sends such a request for an index at a
// shard's end where it was made with `useSuffixRequest: true`, and throws
// "Unexpected response status 416 ..." on the answer; read names the
// cause and the fix instead (docs/read.md, "Over a network"). The store's
// error is kept as the cause.
import { messageOf, ZarrCodecError } from "../../../errors.js";

const STATUS_416 = /\b416\b/;

/**
 * The package's error for a store's failure to fetch the index at the end
 * of shard `key` where it says 416, else undefined (the store's error then
 * reaches the caller as it is).
 * @param {string} key
 * @param {number} indexBytes
 * @param {unknown} error what the store's getRange threw
 * @returns {ZarrCodecError | undefined}
 */
export function suffixRefusal(key, indexBytes, error) {
  if (error instanceof ZarrCodecError || !STATUS_416.test(messageOf(error))) return undefined;
  return new ZarrCodecError(
    "INVALID_CONFIGURATION",
    `read: shard ${key}: asked the store for its last ${indexBytes} bytes (its index), and the server answered 416 (${messageOf(error)}). ` +
      `Where the store asks for them in one suffix request (FetchStore's useSuffixRequest: true sends Range: bytes=-${indexBytes}), ` +
      "the server does not take suffix ranges: make the FetchStore without useSuffixRequest (a HEAD for the size, then the range)",
    { cause: error },
  );
}
