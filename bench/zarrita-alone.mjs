// zarrita alone and with the package registered, side by side in one
// process: zarrita's registry as it came, and as register() leaves it,
// swapped in before each reader opens and first reads its arrays (zarrita
// looks an array's codecs up on its first read, then keeps them).
import { ready, register } from "../js/index.js";

/**
 * @param {{registry: Map<string, unknown>}} zarr
 * @returns {Promise<{plainCodecs: Map<string, unknown>, packageCodecs: Map<string, unknown>, useCodecs: (codecs: Map<string, unknown>) => void}>}
 */
export async function registries(zarr) {
  const plainCodecs = new Map(zarr.registry);
  await ready();
  register(zarr.registry);
  const packageCodecs = new Map(zarr.registry);
  const useCodecs = (codecs) => {
    zarr.registry.clear();
    for (const [k, v] of codecs) zarr.registry.set(k, v);
  };
  return { plainCodecs, packageCodecs, useCodecs };
}
