// zarrita's error for a codec its registry does not have ("Unknown codec:
// lzma_made_up", at the first read) names neither the array nor what to
// do. Where it reaches the user through the package's paths (read,
// withDataTypes' array extension), it becomes the package's error naming
// both, and which package registers such a codec, where one does.
import { ZarrCodecError } from "../errors.js";

const PACKAGE = "zarr-codecs-wasm (register(zarr.registry))";
const ZARRITA = "zarrita itself (0.7; some of them also 0.5 and 0.6)";
const REGISTERED_BY = new Map([
  ...["bytes", "endian", "packbits", "numcodecs.packbits", "n5_default", "vlen-bytes", "numcodecs.vlen-bytes"].map((n) => [n, PACKAGE]),
  ...["blosc", "zstd", "lz4", "gzip", "zlib"].flatMap((n) => [[n, `${PACKAGE} and ${ZARRITA}`], [`numcodecs.${n}`, `${PACKAGE} and ${ZARRITA}`]]),
  ...["transpose", "crc32c", "vlen-utf8", "numcodecs.vlen-utf8", "json2", "numcodecs.json2", "bitround", "numcodecs.bitround", "numcodecs.delta"].map((n) => [n, ZARRITA]),
  ...["scale_offset", "cast_value"].map((n) => [n, `${PACKAGE} and ${ZARRITA}`]),
  // Zarr v2 filters, as zarrita 0.5 and 0.6 name them (0.7: numcodecs.<id>).
  ...["delta", "bitround"].map((n) => [n, "zarrita 0.7 (as numcodecs." + n + ")"]),
]);

/** The codec name of zarrita's unknown-codec error (any version), or undefined. */
function unknownName(error) {
  for (let e = error, depth = 0; e && depth < 4; e = e.cause, depth++) {
    const m = typeof e?.message === "string" ? /^Unknown codec: (.*)$/s.exec(e.message) : null;
    if (m) return m[1];
  }
  return undefined;
}

/**
 * The package's UNKNOWN_CODEC error for zarrita's unknown-codec error
 * while reading the array named `array` (errors.js arrayName; `where` starts the
 * message), or `error` itself where it is another error.
 */
export function withCodecContext(error, where, array) {
  const name = unknownName(error);
  if (name === undefined) return error;
  const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}...` : name);
  const by = REGISTERED_BY.get(name);
  const hint = by
    ? `${by} registers it: register it into the registry of the zarrita that opened the array`
    : "no JavaScript package we know of registers it; a codec class registered under that name (zarr.registry.set(name, loader)) would read it";
  return new ZarrCodecError(
    "UNKNOWN_CODEC",
    `${where}: array ${array || "/"} names the codec ${shown}, which is in no codec registry of the zarrita that opened it; ${hint}`,
    { cause: error },
  );
}
