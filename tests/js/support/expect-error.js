// One check for every error test: `call` throws the package's error with
// this code and this message (a string to match exactly, or a RegExp).
import { expect } from "@jest/globals";
import { ZarrCodecError } from "../../../js/index.js";

export function expectCodecError(call, code, message) {
  let error;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ZarrCodecError);
  expect(error.code).toBe(code);
  if (typeof message === "string") expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
}
