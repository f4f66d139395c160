// The same tile read by zarrita alone (zarr.get, no zarr-codecs-wasm):
// built, never loaded. Its chunk is what the app's would be without the
// package, so the first-tile test tells the package's share of the main
// entry's chunk (docs/where-it-runs.md, "Loading the wasm").
import * as zarr from "zarrita";

try {
  const store = new zarr.FetchStore(new URL("data.zarr", location.href).href);
  const arr = await zarr.open.v3(zarr.root(store).resolve("image"), { kind: "array" });
  const { data } = await zarr.get(arr, [zarr.slice(512, 1024), zarr.slice(0, 512)]);
  window.tile = { ms: performance.now(), values: data };
} catch (error) {
  window.tile = { error: `${error.name}: ${error.message}` };
}
