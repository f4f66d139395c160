// Every zarrita the package supports, side by side (npm aliases in
// package.json): the tests run the same stores through each.
import * as zarrita05 from "zarrita-0.5";
import * as zarrita061 from "zarrita-0.6.1";
import * as zarrita06 from "zarrita-0.6";
import * as zarrita07 from "zarrita";

/** [version, module] of each zarrita under test. */
export const ZARRITAS = [
  ["0.5.4", zarrita05],
  ["0.6.1", zarrita061],
  ["0.6.2", zarrita06],
  ["0.7.5", zarrita07],
];

/** zarrita 0.7 fills what 0.5 and 0.6 cannot (array extensions). */
export const hasArrayExtensions = (zarr) => typeof zarr.extendStore === "function";
