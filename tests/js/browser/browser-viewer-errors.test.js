// When the viewer cannot read an array: one message that names the array
// and the store, the same from the page and from the worker (never
// "Error: Error:"), and no panel left over from the array shown before.
import { describe, expect, jest, test } from "@jest/globals";
import { afterNextLoad, openViewer, viewerSession } from "../support/viewer-page.js";

jest.setTimeout(120000);

// The sample store, the worker bundle, the served repository and Chromium.
const viewer = viewerSession();

// What a person sees of the panels.
const panels = (page) => page.evaluate(() => ({
  canvas: !document.getElementById("canvas").hidden,
  info: document.querySelectorAll("#info tr").length,
  times: document.querySelectorAll("#times td").length,
  legend: document.querySelectorAll("#legend li").length,
  table: !document.getElementById("table-panel").hidden,
  contrast: !document.getElementById("contrast-panel").hidden,
  field: !document.getElementById("field-panel").hidden,
  overlay: { checked: document.getElementById("overlay").checked, disabled: document.getElementById("overlay").disabled },
}));
const EMPTY = { canvas: false, info: 0, times: 0, legend: 0, table: false, contrast: false, field: false, overlay: { checked: false, disabled: true } };

describe.each(["main", "worker"])("decoding in %s", (mode) => {
  test("an array that is not in the store: the array and the store named, nothing drawn", async () => {
    const { page, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}&array=nowhere`);
    const store = `${viewer.url}/examples/viewer/data.zarr/`;
    expect(state.error).toBe(`could not read array "nowhere" of the store ${store}: no array at /nowhere (neither zarr.json nor .zarray)`);
    expect(await page.textContent("#status")).toBe(`error: ${state.error}`);
    expect(await panels(page)).toEqual(EMPTY);
    await page.close();
  });

  test("an array the package refuses: its code once, the same message in page and worker", async () => {
    const store = `${viewer.url}/tests/fixtures/n5-store.n5/`;
    const { page, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}&store=${encodeURIComponent(store)}&array=refused/lz4`);
    expect(state.error).toMatch(new RegExp(`^could not read array "refused/lz4" of the store ${store}: INVALID_METADATA: withN5: array /refused/lz4: .*lz4`));
    expect(state.error).not.toMatch(/Error: Error|INVALID_METADATA: INVALID_METADATA/);
    expect(await panels(page)).toEqual(EMPTY);
    await page.close();
  });
});

test("a failed load after a good one leaves nothing of the good one: image, info, legend, times, overlay", async () => {
  const { page, state } = await openViewer(viewer.browser, viewer.url, "");
  expect(state.error).toBeNull();
  // the sample image with its mask: every panel in use
  expect(await panels(page)).toEqual({
    canvas: true, info: 8, times: 16, legend: 2, table: false, contrast: true, field: false, overlay: { checked: true, disabled: false },
  });
  const open = async (array) => {
    await page.fill("#array-input", array);
    await afterNextLoad(page, () => page.click("#open button"));
  };
  await open("nowhere");
  const after = await page.evaluate(() => ({ state: window.viewerState, search: location.search }));
  expect(after.search).toBe("?array=nowhere");
  expect(after.state.error).toMatch(/^could not read array "nowhere" of the store /);
  expect(after.state).toMatchObject({ info: null, legend: [], chunkMs: [], range: null });
  expect(await panels(page)).toEqual(EMPTY);

  // and the struct table is cleared the same way
  await open("detections");
  expect((await panels(page)).table).toBe(true);
  await open("nowhere");
  expect(await panels(page)).toEqual(EMPTY);
  // back to the image through the browser's history: each step loads again
  await afterNextLoad(page, () => page.goBack());
  expect(await page.evaluate(() => window.viewerState.kind)).toBe("struct");
  await afterNextLoad(page, () => page.goBack());
  await afterNextLoad(page, () => page.goBack());
  expect(await page.evaluate(() => [window.viewerState.error, window.viewerState.kind])).toEqual([null, "image"]);
  await page.close();
});
