// docs/recipes/viv.md shows this module verbatim (viv-n5.test.js holds
// them equal), so that the recipe's code is the code the test runs.
import { loadOmeZarrFromStore, ZarrPixelSource } from "@vivjs/loaders";
import * as zarr from "zarrita";
import { register, withDataTypes, withN5 } from "zarr-codecs-wasm";

// Once, before anything is opened: this package's codecs (bytes, packbits,
// n5_default, withDataTypes' conversions) go into zarrita's registry. Keep
// one zarrita in the bundle, viv's: an array decodes with the registry of
// the zarrita copy that opened it.
register(zarr.registry);

// An OME-Zarr image (url: its multiscales group) through viv's own loader:
// a pixel source per level, with viv's labels and tile size.
export async function openOmeZarr(url) {
  const store = withDataTypes(new zarr.FetchStore(url));
  return loadOmeZarrFromStore(store);
}

// One array of an N5 container (url: the container's root), presented as
// Zarr v3 by withN5, its axes in numpy's order (N5's "dimensions"
// reversed, as zarr-python 2 has them): viv draws the last two as y (rows)
// and x, so an image shows as Fiji shows it; `labels` name the axes in
// that order (["y", "x"], ["z", "y", "x"]).
export async function openN5(url, path, { labels, tileSize }) {
  const store = withDataTypes(withN5(new zarr.FetchStore(url)));
  const array = await zarr.open.v3(zarr.root(store).resolve(path), { kind: "array" });
  return new ZarrPixelSource(array, labels, tileSize);
}
