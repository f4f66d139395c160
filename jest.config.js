// Jest runs the package as users get it: native ES modules, no transform.
export default {
  testEnvironment: "node",
  transform: {},
  testMatch: ["<rootDir>/tests/js/**/*.test.js"],
};
