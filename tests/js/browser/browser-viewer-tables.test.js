// The viewer's text views in Chromium, decoding in the page and in a Web
// Worker: the sample's struct detections as a table of their first records
// (one column per field) with a numeric field drawn as a 1-D strip, and its
// fixed_length_utf32 labels as a table of values with their indices. Every
// cell and pixel from the sample generator's formulas.
import { describe, expect, jest, test } from "@jest/globals";
import { DETECTION_FIELDS, LABELS, makeDetections } from "../../../examples/sample-store.mjs";
import { ARTIFACTS } from "../support/browser.js";
import { autoWindow, canvasRGBA, expectedRGBA, firstDifference, openViewer, setControls, viewerSession } from "../support/viewer-page.js";

jest.setTimeout(120000);

// The sample store, the worker bundle, the served repository and Chromium.
const viewer = viewerSession();

const tableOf = (page) => page.$$eval("#table tr", (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));

// The sample's values have at most 6 significant digits, which the
// viewer's tables print in full: String() of the number.
const detectionRow = (d, i) => [String(i), String(Math.fround(d.x)), String(Math.fround(d.y)), String(d.score), JSON.stringify(d.label)];

describe.each(["main", "worker"])("viewer, decoding in %s", (mode) => {
  test("struct detections: a table of the first 20 records, field x then score drawn as a 64-pixel strip", async () => {
    const { page, problems, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}&array=detections`);
    expect(state.error).toBeNull();
    expect(state.kind).toBe("struct");
    expect(state.info).toMatchObject({ presented: "uint8", storedShape: [64], presentedShape: [64, 42], chunks: [16, 42] });
    expect(state.info.stored).toEqual({ name: "struct", configuration: { fields: DETECTION_FIELDS } });
    expect(state.info.storedType).toBe("struct {x: float32, y: float32, score: float16, label: fixed_length_utf32 (32 B)}");
    expect(state.chunkMs).toHaveLength(4);

    const detections = makeDetections();
    const table = await tableOf(page);
    expect(table[0]).toEqual(["index", ...DETECTION_FIELDS.map((f) => f.name)]);
    expect(table.slice(1)).toEqual(detections.slice(0, 20).map(detectionRow));
    expect(await page.textContent("#table-title")).toBe("first 20 of 64 records");
    // the label column lines up as text
    expect(await page.$eval("#table tr:nth-child(2) td:last-child", (td) => getComputedStyle(td).textAlign)).toBe("left");

    // the numeric fields can be drawn; x is by default
    expect(state.fields).toEqual(["x", "y", "score"]);
    expect(state.field).toBe("x");
    expect(await page.evaluate(() => [document.getElementById("canvas").width, document.getElementById("canvas").height])).toEqual([64, 1]);
    const xs = detections.map((d) => Math.fround(d.x));
    const [xlo, xhi] = autoWindow(xs); // 64 records: the percentiles, fenced
    expect(state.range).toEqual([xlo, xhi]);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(xs, { lo: xlo, hi: xhi }), 64)).toBeNull();
    await page.screenshot({ path: `${ARTIFACTS}/viewer-detections-${mode}.png`, fullPage: true });

    await setControls(page, { field: "score" });
    const scores = detections.map((d) => d.score);
    const [slo, shi] = autoWindow(scores);
    const after = await page.evaluate(() => ({ state: window.viewerState, search: location.search }));
    expect(after.state).toMatchObject({ field: "score", range: [slo, shi] });
    expect(after.search).toContain("field=score");
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(scores, { lo: slo, hi: shi }), 64)).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  test("fixed_length_utf32 labels: a table of values with their indices, no image", async () => {
    const { page, problems, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}&array=labels`);
    expect(state.error).toBeNull();
    expect(state.kind).toBe("strings");
    expect(state.info).toMatchObject({ presented: "v2:object", storedType: "fixed_length_utf32 (32 B)", storedShape: [8] });
    const table = await tableOf(page);
    expect(table).toEqual([["index", "value"], ...LABELS.map((l, i) => [String(i), JSON.stringify(l)])]);
    expect(await page.textContent("#table-title")).toBe(`first ${LABELS.length} of ${LABELS.length} values`);
    expect(await page.isHidden("#canvas")).toBe(true);
    expect(await page.isHidden("#contrast-panel")).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});

test("?field= picks the field drawn and ?rows= the table's length", async () => {
  const { page, state } = await openViewer(viewer.browser, viewer.url, "array=detections&field=y&rows=5");
  const detections = makeDetections();
  const ys = detections.map((d) => Math.fround(d.y));
  const [lo, hi] = autoWindow(ys);
  expect(state.field).toBe("y");
  expect(await page.inputValue("#field")).toBe("y");
  expect(firstDifference(await canvasRGBA(page), expectedRGBA(ys, { lo, hi }), 64)).toBeNull();
  expect((await tableOf(page)).slice(1)).toEqual(detections.slice(0, 5).map(detectionRow));
  await page.close();
});
