// The reader of the differential fuzz of `read` (read-differential.mjs): a
// worker thread that opens each case's store with zarrita (0.7.5, 0.6.2 or
// 0.5.4; register(zarr.registry) on each, withDataTypes or not) and reads
// each selection with `read` (and again into a preallocated container),
// and with zarr.get beside it. Results go back in a comparable form (C
// order, bytes or values), so that the main thread can stop a read that
// never ends (a deadline, then a new worker) and judge it against numpy's
// answer.
import { parentPort } from "node:worker_threads";
import * as zarr7 from "zarrita";
import * as zarr6 from "zarrita-0.6";
import * as zarr5 from "zarrita-0.5";
import { read, ready, register, withDataTypes } from "../../../js/index.js";
import { failureOf, serveJobs } from "./worker-jobs.mjs";
import { memoryStore } from "./reference-cases.mjs";

await ready();
const ZARRITAS = { "0.7.5": zarr7, "0.6.2": zarr6, "0.5.4": zarr5 };
for (const z of Object.values(ZARRITAS)) register(z.registry);
// Legacy-structured warnings would flood the output.
console.warn = () => {};

const product = (values) => values.reduce((a, b) => a * b, 1);

/** A selection as zarr.get takes it, from the fuzzer's tagged form. */
function toSelection(z, tagged, rank, pad) {
  if (tagged === null) return null;
  const out = tagged.map((s) => {
    if (s === null) return null;
    if ("i" in s) return s.i;
    if ("s" in s) return z.slice(s.s[0], s.s[1], s.s[2]);
    if ("list" in s) return [...s.list];
    if ("obj" in s) return { ...s.obj };
    return s.str;
  });
  // The trailing dimension of complex, records and raw bytes (and any axis
  // the selection leaves out) taken whole.
  if (pad) while (out.length < rank) out.push(null);
  return out;
}

/** An element's bytes from a container with a buffer, `w` bytes each. */
function bytesOfContainer(data) {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * What read or zarr.get returned, comparable across threads: a scalar as
 * it is; a region as its container's name, shape, stride and elements in
 * C order (bytes for containers with a buffer, values for Arrays).
 */
function comparable(result) {
  if (result === null || typeof result !== "object" || !("data" in result)) {
    return { scalar: result instanceof Uint8Array ? { bytes: result.slice() } : result };
  }
  const { data, shape, stride } = result;
  const n = product(shape);
  const container = data?.constructor?.name ?? typeof data;
  const index = new Array(shape.length).fill(0);
  const at = () => index.reduce((s, v, i) => s + v * stride[i], 0);
  const step = () => {
    for (let i = shape.length - 1; i >= 0 && ++index[i] === shape[i]; i--) index[i] = 0;
  };
  if (Array.isArray(data)) {
    const values = [];
    for (let k = 0; k < n; k++, step()) {
      const at_ = at();
      const v = data[at_];
      values.push(!(at_ in data) ? { hole: true } : v instanceof Uint8Array ? { bytes: v.slice() } : v);
    }
    return { container, shape: [...shape], stride: [...stride], values };
  }
  const w = data.BYTES_PER_ELEMENT;
  const src = bytesOfContainer(data);
  const bytes = new Uint8Array(n * w);
  for (let k = 0; k < n; k++, step()) bytes.set(src.subarray(at() * w, at() * w + w), k * w);
  return { container, shape: [...shape], stride: [...stride], bytes, chars: data.chars };
}


/** A container of the class `data` has, `n` elements, filled with garbage (so an element never written shows). */
function intoLike(data, n) {
  if (Array.isArray(data)) return new Array(n).fill("\u0001never written");
  const C = data.constructor;
  let into;
  if (data.chars !== undefined) into = new C(data.chars, n);
  else into = new C(n);
  new Uint8Array(into.buffer, into.byteOffset, into.byteLength).fill(0xa5);
  return into;
}

async function run({ files, path, zarrita, wrap, openAs, selections }) {
  const z = ZARRITAS[zarrita];
  const map = new Map(files);
  const base = memoryStore(map);
  const store = wrap === "plain" ? base : withDataTypes(base, wrap === "bits" ? { floats: "bits" } : undefined);
  const location = z.root(store).resolve(path);
  let arr;
  try {
    arr = await (openAs === "v3" ? z.open.v3(location, { kind: "array" }) : openAs === "v2" ? z.open.v2(location, { kind: "array" }) : z.open(location, { kind: "array" }));
  } catch (error) {
    return { open: failureOf(error) };
  }
  const rank = arr.shape.length;
  const results = [];
  for (const [i, { sel, into, pad }] of selections.entries()) {
    parentPort.postMessage({ progress: i });
    const out = {};
    let first;
    try {
      first = await read(arr, toSelection(z, sel, rank, pad));
      out.read = comparable(first);
    } catch (error) {
      out.read = failureOf(error);
    }
    if (into && first && typeof first === "object" && "data" in first) {
      const target = intoLike(first.data, first.data.length);
      try {
        const again = await read(arr, toSelection(z, sel, rank, pad), { into: target });
        out.into = comparable(again);
        out.into.same = again.data === target;
      } catch (error) {
        out.into = failureOf(error);
      }
    }
    try {
      out.get = comparable(await z.get(arr, toSelection(z, sel, rank, true)));
    } catch (error) {
      out.get = failureOf(error);
    }
    results.push(out);
  }
  return { dtype: arr.dtype, shape: arr.shape, chunks: arr.chunks, results };
}

serveJobs(run, failureOf);
