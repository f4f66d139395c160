// What both pages do once the entry is chosen: open the served image and
// read one 512 x 512 tile into a preallocated array, as a viewer's first
// tile. `window.tile` holds the time from navigation start to the values
// being in `into`, then the values for the test to check.
import * as zarr from "zarrita";

export const TILE = [512, 512];

export async function firstTile({ ready, register, read }, wasm) {
  try {
    register(zarr.registry);
    await ready(wasm);
    const store = new zarr.FetchStore(new URL("data.zarr", location.href).href);
    const arr = await zarr.open.v3(zarr.root(store).resolve("image"), { kind: "array" });
    const into = new Uint16Array(TILE[0] * TILE[1]);
    await read(arr, [zarr.slice(512, 1024), zarr.slice(0, 512)], { into });
    const ms = performance.now();
    window.tile = { ms, values: into };
  } catch (error) {
    window.tile = { error: `${error.code ?? error.name}: ${error.message}` };
  }
}
