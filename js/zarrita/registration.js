// Whether register() has run: withDataTypes and withN5 present metadata
// that names this package's codecs, which zarrita finds only in a registry
// register() extended. Without it zarrita would say "Unknown codec:
// zarr-codecs-wasm.stored"; this says what to do instead. (With several
// zarrita copies, registering one of them counts: the check is for the
// common first mistake, not a proof.)
import { ZarrCodecError } from "../errors.js";

let registered = false;
// The registries register() extended, in order: read takes the bytes ->
// bytes codecs (gzip, zstd, blosc, ...) of a chain from them.
const registries = [];

export function markRegistered(registry) {
  registered = true;
  if (registry && !registries.includes(registry)) registries.push(registry);
}

/** The registries register() extended, first first. */
export function registeredRegistries() {
  return registries;
}

/** Throws NOT_REGISTERED unless register() has run. */
export function requireRegistration(where, what) {
  if (registered) return;
  throw new ZarrCodecError(
    "NOT_REGISTERED",
    `${where}: ${what}, which zarrita finds only once this package's codecs are registered: ` +
      "call register(zarr.registry) on the zarrita that opens the store, before opening it",
  );
}
