// Vite: `?url` emits the file as a hashed asset and gives its URL.
export { default } from "zarr-codecs-wasm/wasm?url";
