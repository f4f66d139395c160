// Which failures of a store call are worth another try: the ones an object
// store's own clients retry (the AWS SDKs' standard mode, Rust's
// object_store, gcsfs): the network dropping the request, and the HTTP
// statuses that say "not now" rather than "no":
//   429 Too Many Requests, 500 Internal Server Error, 502 Bad Gateway,
//   503 Service Unavailable (S3's SlowDown), 504 Gateway Timeout.
// Never an abort (the read's signal, or a timeout the caller set): the
// caller asked to stop. Never a 404: zarrita's stores answer it with
// undefined (a missing chunk, filled), so it is no failure at all.
//
// Where the status comes from: zarrita's FetchStore (zarrita 0.7.5's
// @zarrita/storage 0.2, and the @zarrita/storage of zarrita 0.5.4 and
// 0.6.2 alike) throws a plain Error for any status but 200, 206 and 404:
//   `Unexpected response status ${status} ${statusText}`
// with no status property, so it is read from that message. A store of
// one's own may instead throw an error with a numeric `status` (or
// `statusCode`, or `response.status`), which is read first.
//
// Network errors: fetch rejects with a TypeError: "fetch failed" in Node
// (undici; its cause says why: ECONNRESET, UND_ERR_SOCKET "other side
// closed", ECONNREFUSED), "Failed to fetch" in Chromium, "NetworkError when
// attempting to fetch resource." in Firefox, "Load failed" in Safari.
// Node's own sockets throw errors with a code (ECONNRESET, EPIPE,
// ETIMEDOUT).

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const NETWORK_MESSAGES = /^(fetch failed|failed to fetch|networkerror when attempting to fetch resource\.?|load failed|network error)$/i;
const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"]);
const STATUS_IN_MESSAGE = /^Unexpected response status (\d{3})\b/;

function read(f) {
  try {
    return f();
  } catch {
    return undefined; // an error whose members throw says nothing
  }
}

/** Whether `error` is an abort (never retried). */
export function isAbort(error) {
  const name = read(() => error?.name);
  return name === "AbortError" || name === "TimeoutError";
}

/** The HTTP status a failed store call reports, or undefined. */
export function statusOf(error) {
  return read(() => {
    for (const s of [error?.status, error?.statusCode, error?.response?.status]) {
      if (Number.isInteger(s) && s >= 100 && s <= 599) return s;
    }
    const m = typeof error?.message === "string" ? STATUS_IN_MESSAGE.exec(error.message) : null;
    return m ? Number(m[1]) : undefined;
  });
}

function networkError(error) {
  return read(() => {
    if (NETWORK_CODES.has(error?.code) || NETWORK_CODES.has(error?.cause?.code)) return true;
    return error instanceof TypeError && typeof error.message === "string" && NETWORK_MESSAGES.test(error.message);
  });
}

/**
 * What a failed store call was, for the retry loop and its message:
 * { transient, status, what } where `what` says it in a few words
 * ("HTTP 503", "a network error (fetch failed: other side closed)").
 * @param {unknown} error
 */
export function classify(error) {
  if (isAbort(error)) return { transient: false, status: undefined, what: "aborted" };
  const status = statusOf(error);
  if (status !== undefined) return { transient: RETRIED_STATUSES.has(status), status, what: `HTTP ${status}` };
  if (networkError(error)) {
    const why = read(() => error?.cause?.message ?? error?.cause?.code ?? error?.code);
    const message = read(() => error?.message) ?? "network error";
    return { transient: true, status: undefined, what: `a network error (${typeof why === "string" && why !== message ? `${message}: ${why}` : message})` };
  }
  return { transient: false, status: undefined, what: undefined };
}
