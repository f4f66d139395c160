// The slim entry and the .wasm as an asset Vite emits (`?url`).
import * as entry from "zarr-codecs-wasm/slim";
import wasmUrl from "zarr-codecs-wasm/wasm?url";
import { firstTile } from "./tile.js";

firstTile(entry, { wasm: wasmUrl });
