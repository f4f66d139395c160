// A viewer's data layer as viv apps build it: viv's ZarrPixelSource over
// arrays opened with zarrita 0.5.4, the one copy viv imports too
// (package.json's overrides), so the app's register() reaches viv.
import { ZarrPixelSource } from "@vivjs/loaders";
import * as zarr from "zarrita";
import { register } from "zarr-codecs-wasm";

const TILE_SIZE = 64;

async function pixelSource(name) {
  const store = new zarr.FetchStore(new URL("data.zarr", location.href).href);
  const arr = await zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" });
  return new ZarrPixelSource(arr, ["y", "x"], TILE_SIZE);
}

window.app = {
  register: () => {
    register(zarr.registry);
  },
  // Every tile of an image, as a viewer requests them.
  async readTiles(name) {
    const source = await pixelSource(name);
    const [height, width] = source.shape;
    const tiles = [];
    for (let y = 0; y * TILE_SIZE < height; y++) {
      for (let x = 0; x * TILE_SIZE < width; x++) {
        const tile = await source.getTile({ x, y, selection: {} });
        tiles.push({ x, y, width: tile.width, height: tile.height, data: Array.from(tile.data) });
      }
    }
    return { dtype: source.dtype, tiles };
  },
};
window.loaded = true;
