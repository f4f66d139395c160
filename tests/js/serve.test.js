// scripts/serve.mjs as `npm run viewer` runs it: any free port unless PORT
// is set; a PORT that is taken or no port is one clear line and exit code
// 1, not a stack trace; everything is served with CORS (the repository as
// `npm run viewer` serves it, and a named directory), so that a page on
// another origin reads a store: GET, ranges, and preflights answered.
import { afterEach, expect, jest, test } from "@jest/globals";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { ROOT } from "./support/browser.js";

jest.setTimeout(30000);

const children = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

function runServe(env, args = []) {
  const { PORT: _, ...rest } = process.env;
  return spawnSync("node", ["scripts/serve.mjs", ...args], { cwd: ROOT, env: { ...rest, ...env }, encoding: "utf8", timeout: 10000 });
}

// Starts serve.mjs and resolves to the URL of its first line.
function startServe(env, args = []) {
  const { PORT: _, ...rest } = process.env;
  const child = spawn("node", ["scripts/serve.mjs", ...args], { cwd: ROOT, env: { ...rest, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(out);
      if (match) resolve({ url: match[1], port: Number(match[2]), out });
    });
    child.on("exit", (code) => reject(new Error(`serve.mjs exited with ${code}: ${out}`)));
  });
}

test("without PORT it listens on a free port and serves the viewers", async () => {
  const { url, port } = await startServe({});
  expect(port).toBeGreaterThan(0);
  const page = await fetch(`${url}/examples/viewer/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("zarr-codecs-wasm viewer");
  const tiles = await fetch(`${url}/examples/tile-viewer/`);
  expect(tiles.status).toBe(200);
  expect(await tiles.text()).toContain("zarr-codecs-wasm tile viewer");
});

test("a PORT that is taken: one line naming the port, exit code 1", async () => {
  const blocker = createServer();
  await new Promise((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = blocker.address();
  try {
    const { status, stdout, stderr } = runServe({ PORT: String(port) });
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(`serve: port ${port} on 127.0.0.1 is in use: set PORT to a free port, or leave PORT unset for any free one\n`);
  } finally {
    blocker.close();
  }
});

test("a PORT that is no port number: one line, exit code 1", () => {
  const { status, stderr } = runServe({ PORT: "80a" });
  expect(status).toBe(1);
  expect(stderr).toBe('serve: PORT must be a port number (0..65535), got "80a"\n');
});

test("a named directory is served at the root, with CORS; a missing one is refused", async () => {
  const { url } = await startServe({}, ["tests/fixtures/n5-store.n5"]);
  const response = await fetch(`${url}/attributes.json`);
  expect(response.headers.get("access-control-allow-origin")).toBe("*");
  expect(JSON.parse(await response.text())).toMatchObject({ n5: "2.0.0" });
  // a missing key too: a store's reader must see a 404, not a CORS failure
  const missing = await fetch(`${url}/zarr.json`);
  expect(missing.status).toBe(404);
  expect(missing.headers.get("access-control-allow-origin")).toBe("*");
  const { status, stderr } = runServe({}, ["tests/fixtures/no-such-dir"]);
  expect(status).toBe(1);
  expect(stderr).toBe(`serve: no directory ${ROOT}tests/fixtures/no-such-dir\n`);
});

test("the repository, as npm run viewer serves it, answers every origin: GET, ranges and preflights", async () => {
  const { url } = await startServe({});
  const origin = { origin: "http://localhost:5173" };
  const whole = await fetch(`${url}/package.json`, { headers: origin });
  expect([whole.status, whole.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
  const size = Number(whole.headers.get("content-length"));
  const suffix = await fetch(`${url}/package.json`, { headers: { ...origin, range: "bytes=-10" } });
  expect([suffix.status, suffix.headers.get("access-control-allow-origin"), suffix.headers.get("content-range")]).toEqual([206, "*", `bytes ${size - 10}-${size - 1}/${size}`]);
  expect(suffix.headers.get("access-control-expose-headers")).toBe("content-length, content-range, accept-ranges");
  // What Chromium sends before a suffix range or a request with a header of the app's own.
  const preflight = await fetch(`${url}/package.json`, {
    method: "OPTIONS",
    headers: { ...origin, "access-control-request-method": "GET", "access-control-request-headers": "range,x-app", "access-control-request-private-network": "true" },
  });
  expect(preflight.status).toBe(204);
  expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith("access-control-")))).toEqual({
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, HEAD, OPTIONS",
    "access-control-allow-headers": "range,x-app",
    "access-control-allow-private-network": "true",
    "access-control-expose-headers": "content-length, content-range, accept-ranges",
    "access-control-max-age": "600",
  });
  const missing = await fetch(`${url}/examples/viewer/no-such-store/zarr.json`, { headers: origin });
  expect([missing.status, missing.headers.get("access-control-allow-origin")]).toEqual([404, "*"]);
});
