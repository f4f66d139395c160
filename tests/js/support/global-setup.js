// Jest's globalSetup (jest.config.js): the run's shared folder (support/test-run.js).
export { globalSetup as default } from "./test-run.js";
