// Several Node worker_threads using the package at once, each with its own
// module instance; every result checked in the worker.
import { expect, jest, test } from "@jest/globals";
import { Worker } from "node:worker_threads";
import { ROOT } from "./support/browser.js";

jest.setTimeout(120000);

test("four worker_threads, 300 random decodes and encodes each, all right", async () => {
  const results = await Promise.all([1, 2, 3, 4].map((seed) => new Promise((resolve, reject) => {
    const worker = new Worker(`${ROOT}tests/soak/thread-worker.mjs`, { workerData: { seed, rounds: 300 } });
    worker.once("message", resolve);
    worker.once("error", reject);
  })));
  expect(results).toEqual([1, 2, 3, 4].map(() => ({ ok: 300, wrong: 0 })));
});
