// webpack 5: the build's `asset/resource` rule for .wasm emits the file and
// gives its URL.
export { default } from "zarr-codecs-wasm/wasm";
