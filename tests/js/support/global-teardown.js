// Jest's globalTeardown (jest.config.js): the run's shared folder removed (support/test-run.js).
export { globalTeardown as default } from "./test-run.js";
