// The key under which an array -> array codec says what its decode does,
// as data ({ op: "cast" | "scale_offset" | "fixedscaleoffset" | "identity",
// ... }): read's value steps (read/decode/value-steps.js) run in wasm the
// ones that are plain IEEE arithmetic. A symbol: not part of the codecs'
// public shape.
export const DECODE_DESCRIPTION = Symbol("zarr-codecs-wasm.decodeDescription");
