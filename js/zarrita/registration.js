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

/**
 * The name of a codec only register() puts in a registry: a zarrita copy
 * whose pipeline finds it is one register() extended (copies.js asks).
 * It is a mark, not a codec: no array's metadata can name it.
 */
export const REGISTERED_MARK = "zarr-codecs-wasm.registered";

/** What zarrita gets where it makes a codec of the mark. */
export class RegisteredMarkError extends ZarrCodecError {
  constructor() {
    super("INVALID_METADATA", `${REGISTERED_MARK} is the mark register() leaves in a codec registry, not a codec: no array's metadata can name it`);
  }
}

// As zarrita loads codecs: a class whose fromConfig zarrita calls when it
// builds a pipeline (on an array's first decode).
const MARK = {
  fromConfig() {
    throw new RegisteredMarkError();
  },
};
const loadMark = async () => MARK;

export function markRegistered(registry) {
  registered = true;
  if (registry && !registries.includes(registry)) registries.push(registry);
  if (typeof registry?.set === "function") registry.set(REGISTERED_MARK, loadMark);
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
