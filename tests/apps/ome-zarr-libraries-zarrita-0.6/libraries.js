// The app's imports, as its own code writes them: the test imports this
// module so that each bare name resolves from this app's node_modules,
// where npm put it. ngff-zarr is imported when asked (in one layout its
// import fails, and the test says how).
export * as zarr from "zarrita";
export * as omeZarr from "ome-zarr.js";
export const ngffZarr = () => import("@fideus-labs/ngff-zarr");
