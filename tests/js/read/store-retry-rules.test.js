// The rules read's store-call gateway retries by (js/read/fetch/): which
// failures pass (transient-failures.js), and how long it waits
// (backoff.js), on the errors each runtime and store throws, written out
// by hand: fetch's TypeErrors in Node, Chromium, Firefox and Safari,
// zarrita's FetchStore message, a store of one's own with a status field.
// The retries themselves, against a real server: network-retries.test.js.
import { describe, expect, test } from "@jest/globals";
import { classify, statusOf } from "../../../js/read/fetch/requests/transient-failures.js";
import { backoffDelay, wait } from "../../../js/read/fetch/requests/backoff.js";

const withCause = (error, cause) => Object.assign(error, { cause });

describe("transient: network errors and HTTP 429, 500, 502, 503, 504", () => {
  test.each([
    ["Node (undici), a dropped connection", withCause(new TypeError("fetch failed"), Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }))],
    ["Node (undici), refused", withCause(new TypeError("fetch failed"), Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }))],
    ["Chromium", new TypeError("Failed to fetch")],
    ["Firefox", new TypeError("NetworkError when attempting to fetch resource.")],
    ["Safari", new TypeError("Load failed")],
    ["a Node socket", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
  ])("%s", (_, error) => {
    const got = classify(error);
    expect(got.transient).toBe(true);
    expect(got.status).toBeUndefined();
    expect(got.what).toMatch(/^a network error \(/);
  });

  test.each([429, 500, 502, 503, 504])("FetchStore's message for %i (zarrita 0.5 to 0.7)", (status) => {
    const error = new Error(`Unexpected response status ${status} Whatever`);
    expect(classify(error)).toEqual({ transient: true, status, what: `HTTP ${status}` });
  });

  test("a status field a store of one's own sets: status, statusCode, response.status", () => {
    expect(statusOf(Object.assign(new Error("x"), { status: 503 }))).toBe(503);
    expect(statusOf(Object.assign(new Error("x"), { statusCode: 429 }))).toBe(429);
    expect(statusOf(Object.assign(new Error("x"), { response: { status: 502 } }))).toBe(502);
    expect(classify(Object.assign(new Error("Service Unavailable"), { status: 503 })).transient).toBe(true);
  });
});

describe("not transient", () => {
  test.each([
    ["HTTP 403", new Error("Unexpected response status 403 Forbidden")],
    ["HTTP 404 (thrown, as no zarrita store does)", new Error("Unexpected response status 404 Not Found")],
    ["HTTP 416", new Error("Unexpected response status 416 Range Not Satisfiable")],
    ["HTTP 501", Object.assign(new Error("Not Implemented"), { status: 501 })],
    ["an abort", new DOMException("This operation was aborted", "AbortError")],
    ["a timeout", new DOMException("The operation timed out.", "TimeoutError")],
    ["an abort whose cause is a network error", withCause(new DOMException("aborted", "AbortError"), Object.assign(new Error("x"), { code: "ECONNRESET" }))],
    ["a TypeError of a bug", new TypeError("store.getRange is not a function")],
    ["a string", "fetch failed"],
    ["undefined", undefined],
  ])("%s", (_, error) => expect(classify(error).transient).toBe(false));

  test("an error whose members throw is looked at without throwing", () => {
    const hostile = new Proxy(new Error("x"), {
      get() {
        throw new Error("no");
      },
    });
    expect(classify(hostile).transient).toBe(false);
  });
});

describe("backoff: full jitter, exponential, capped", () => {
  const settings = { baseDelayMs: 100, maxDelayMs: 1000 };
  test.each([
    // [retry, random, delay]: floor(random * min(max, base * 2^(retry - 1)))
    [1, 0, 0],
    [1, 0.5, 50],
    [1, 0.999, 99],
    [2, 0.5, 100],
    [3, 0.999, 399],
    [4, 0.5, 400],
    [5, 0.5, 500], // 1600 capped at 1000
    [30, 0.25, 250],
  ])("retry %i, random %p: %i ms", (retry, random, delay) => expect(backoffDelay(retry, settings, () => random)).toBe(delay));

  test("a wait ends at once when its signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const waiting = wait(1e9, controller.signal);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(wait(1e9, controller.signal)).rejects.toBe(reason); // already aborted
    await expect(wait(0, undefined)).resolves.toBeUndefined();
  });
});
