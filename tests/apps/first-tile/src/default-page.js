// The main entry, with nothing set up: ready() finds the wasm itself.
import * as entry from "zarr-codecs-wasm";
import { firstTile } from "./tile.js";

firstTile(entry, undefined);
