// Jest runs the package as users get it: native ES modules, no transform.
import { availableParallelism } from "node:os";

export default {
  testEnvironment: "node",
  transform: {},
  testMatch: ["<rootDir>/tests/js/**/*.test.js"],
  // A worker per core: Jest's default (cores - 1) is one worker on 2
  // cores, and one suite at a time used under one core on average
  // (docs/development.md, "Testing").
  maxWorkers: availableParallelism(),
  // The longest suites start first (tests/js/support/longest-first-sequencer.js).
  testSequencer: "<rootDir>/tests/js/support/longest-first-sequencer.js",
  // A folder the suites of one run share, for work done once per run
  // (tests/js/support/test-run.js).
  globalSetup: "<rootDir>/tests/js/support/global-setup.js",
  globalTeardown: "<rootDir>/tests/js/support/global-teardown.js",
};
