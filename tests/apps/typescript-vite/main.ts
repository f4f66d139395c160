// The README's `read`, read pool, `withDataTypes` and records + N5 examples, as a new
// user puts them into a TypeScript app built by Vite: copied as they are,
// each in a block of its own (they reuse names), with the README's
// https://example.com URLs pointed at the store server named by the page's
// ?store= (scripts/serve.mjs on another port, with CORS headers).
// tests/js/browser/typescript-vite.test.js type-checks this file (strict),
// serves it with Vite's dev server, and compares what the examples print
// with the README's `// =>` comments.
import * as zarr from "zarrita";
import { createReadPool, read, register, storedDataType, structFields, withDataTypes, withN5 } from "zarr-codecs-wasm";

const base = new URLSearchParams(location.search).get("store") ?? "http://127.0.0.1:8080";

// What the examples print, kept for the test as well as logged.
const printed: unknown[][] = [];
const log = console.log.bind(console);
console.log = (...args: unknown[]) => {
  printed.push(args);
  log(...args);
};

async function examples(): Promise<void> {
  {
    register(zarr.registry);
    const store = new zarr.FetchStore(`${base}/data.zarr`);
    const image = await zarr.open(zarr.root(store).resolve("image"), { kind: "array" });
    if (!image.is("uint16")) throw new Error(`expected uint16, got ${image.dtype}`);
    const { data, shape } = await read(image, [zarr.slice(0, 256), null]); // zarr.get's result, chunks decoded into place
    console.log(shape, data.slice(0, 4)); // => [ 256, 512 ] Uint16Array(4) [ 1937, 2027, 2041, 2045 ]
  }
  {
    const image = await zarr.open(zarr.root(new zarr.FetchStore(`${base}/data.zarr`)).resolve("image"), { kind: "array" });
    const pool = createReadPool(); // the cores less one; workers start when needed and stay warm
    let landed = 0;
    const { data } = await read(image, null, { pool, onProgress: ({ done, total }) => (landed = done / total) }); // draw as chunks land
    console.log(data.length, landed); // => 262144 1
    await pool.close();
  }
  {
    register(zarr.registry);
    const store = withDataTypes(new zarr.FetchStore(`${base}/data.zarr`));
    const weights = await zarr.open(zarr.root(store).resolve("weights"), { kind: "array" });
    console.log(storedDataType(weights), "as", weights.dtype); // => int4 as int8
    const activations = await zarr.open(zarr.root(store).resolve("activations"), { kind: "array" });
    const { data } = await zarr.get(activations, [256, zarr.slice(200, 204)]);
    console.log(storedDataType(activations), data); // => float8_e4m3 Float32Array(4) [ 56, 60, 64, 64 ] // widened exactly
  }
  {
    register(zarr.registry);
    const store = withDataTypes(new zarr.FetchStore(`${base}/data.zarr`));
    const detections = await zarr.open(zarr.root(store).resolve("detections"), { kind: "array" });
    const { x, score, label } = structFields(await zarr.get(detections), detections);
    console.log(x.data[1], score.data[1], label.data[1]); // => 21.625 0.578125 axon // float32, float16 widened, a string

    const n5 = withN5(withDataTypes(new zarr.FetchStore(`${base}/container.n5`)));
    const block = await zarr.open(zarr.root(n5).resolve("volumes/raw/gzip"), { kind: "array" });
    console.log(block.dtype, (await zarr.get(block)).shape); // => uint16 [ 5, 7 ] // big-endian, gzip'd N5 blocks, decoded in wasm, in numpy's axis order
  }
}

// Values as the test rebuilds them: a TypedArray by its constructor's name.
function portable(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return { typedArray: value.constructor.name, values: Array.prototype.map.call(value, String) };
  }
  return Array.isArray(value) ? value.map(portable) : value;
}

declare global {
  interface Window {
    loaded?: boolean;
    printed?: unknown[][];
    failure?: string;
  }
}

examples().then(
  () => {
    window.printed = printed.map((args) => args.map(portable));
    const out = document.getElementById("out");
    if (out) out.textContent = printed.map((args) => args.join(" ")).join("\n");
  },
  (error: unknown) => {
    window.failure = String(error instanceof Error ? (error.stack ?? error.message) : error);
  },
).finally(() => {
  window.loaded = true;
});
