// One check for every error test: the call throws (or the promise rejects
// with) the package's error with this code and this message (a string to
// match exactly, or a RegExp).
import { expect } from "@jest/globals";
import { ZarrCodecError } from "../../../js/index.js";

function expectError(error, code, message) {
  expect(error).toBeInstanceOf(ZarrCodecError);
  expect(error.code).toBe(code);
  if (typeof message === "string") expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
}

export function expectCodecError(call, code, message) {
  let error;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expectError(error, code, message);
}

export async function expectCodecRejection(promise, code, message) {
  let error;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  expectError(error, code, message);
}

/** What `promise` rejects with (for tests that look at the error's parts); a resolve fails the test. */
export async function rejectionOf(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}
