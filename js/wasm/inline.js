// The .wasm inlined in the package as base64: the zero-configuration
// default of the main entry's ready(). A dynamic import, so a bundle that
// loads the .wasm file instead (zarr-codecs-wasm/slim + ready({ wasm }))
// never contains it, and one that uses it fetches it only when needed.
import { importDist } from "./dist-import.js";

export async function inlineWasm() {
  const { default: base64 } = await importDist("dist/zarr-codecs-wasm.inline.mjs", () => import("../../dist/zarr-codecs-wasm.inline.mjs"));
  // atob is in browsers, workers and Node >= 16; no eval, no fetch of a
  // data: URL (which a Content-Security-Policy's connect-src would block).
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
