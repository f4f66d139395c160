// The page of viv-n5.test.js: viv's ZarrPixelSource over N5 arrays (and one
// OME-Zarr image) opened by open-stores.js, the recipe's code. Tiles and
// rasters go back to the test as plain arrays, to be compared there with
// the values zarr-python wrote.
import { ZarrCodecError } from "zarr-codecs-wasm";
import { openN5, openOmeZarr } from "./open-stores.js";

const N5_ROOT = new URL("n5-store.n5", location.href).href;
const LABELS = ["y", "x"];

const plain = ({ data, width, height }) => ({ type: data.constructor.name, width, height, data: Array.from(data) });

// A failure must come back as an error, not as a read that never ends.
function withinSeconds(seconds, promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

window.app = {
  // Every tile of an N5 array, as viv's tile layer asks for them, and its
  // full-resolution raster.
  async readN5(path, tileSize) {
    const source = await openN5(N5_ROOT, path, { labels: LABELS, tileSize });
    const [height, width] = source.shape;
    const tiles = [];
    for (let y = 0; y * tileSize < height; y++) {
      for (let x = 0; x * tileSize < width; x++) {
        tiles.push({ x, y, ...plain(await source.getTile({ x, y, selection: {} })) });
      }
    }
    const raster = plain(await source.getRaster({ selection: {} }));
    return { shape: source.shape, dtype: source.dtype, tiles, raster };
  },

  // The first tile of an OME-Zarr image's full-resolution level.
  async readOmeZarr(name) {
    const { data } = await openOmeZarr(new URL(name, location.href).href);
    const [source] = data;
    const tile = await source.getTile({ x: 0, y: 0, selection: {} });
    return { levels: data.length, labels: source.labels, tileSize: source.tileSize, shape: source.shape, ...plain(tile) };
  },

  // Opens an N5 array and reads its first tile; the error it fails with,
  // as the page sees it.
  async failure(path) {
    try {
      await withinSeconds(10, openN5(N5_ROOT, path, { labels: LABELS, tileSize: 4 }).then((s) => s.getTile({ x: 0, y: 0, selection: {} })));
      return null;
    } catch (error) {
      return { zarrCodecError: error instanceof ZarrCodecError, name: error.name, code: error.code, message: error.message };
    }
  },
};
window.loaded = true;
