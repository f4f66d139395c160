// Placing chunks stored as the output holds them: from JavaScript, one
// copy per contiguous run (direct-placement.js). Used only where every
// chunk's runs are long enough; elsewhere the bands (band-placer.js) do
// better.
import { chunkWhere } from "../chunk-where.js";
import { countRead } from "../read-counts.js";
import { copyDirect, fillDirect, MIN_RUN_BYTES, runsOf } from "./direct-placement.js";
import { detached, outputStrides } from "./output.js";

const product = (values) => values.reduce((a, b) => a * b, 1);

/**
 * The direct placer, or undefined where it does not apply: the chunks are
 * not stored as the output holds them, or a run is too short.
 * @param {import("./placer.js").PlaceContext} ctx
 * @param {{wholeChunks?: boolean}} [how] wholeChunks: the chunks come
 *   decoded whole in C order (a chunk cache's: ../cache/), whatever the
 *   array's chain and storage order
 * @returns {import("./placer.js").Placer | undefined}
 */
export function directPlacer({ arr, plan, axes, chunks, out, placed, failures }, { wholeChunks = false } = {}) {
  const stored = wholeChunks ? plan.decoder !== undefined : plan.decoder?.direct && plan.order === null;
  if (!stored || axes.some((a) => a.virtual)) return undefined;
  const eb = plan.elementBytes;
  const strides = outputStrides(axes, eb);
  const extents = plan.za.chunkShape;
  const layouts = new Map();
  for (const c of chunks) {
    const layout = runsOf(c.mapping, extents, strides, eb);
    if (layout.run < MIN_RUN_BYTES) return undefined;
    layouts.set(c, layout);
  }
  const chunkBytes = product(extents) * eb;
  const outBytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  const outLength = outBytes.byteLength;
  return {
    direct: true,
    deliver(c, decoded) {
      if (outBytes.byteLength !== outLength) throw detached();
      const layout = layouts.get(c);
      if (decoded.kind === "copied") {
        try {
          copyDirect(decoded.bytes, chunkBytes, layout, outBytes, () => chunkWhere(arr, plan, c.coords));
          if (!decoded.fromCache) countRead("copied");
          placed(c);
          return;
        } catch (error) {
          // The length is checked before anything is copied.
          if (!failures?.absorb(c, error)) throw error;
        }
      }
      if (!decoded.fromCache) countRead("filled");
      fillDirect(plan.fill, layout, outBytes);
      placed(c);
    },
  };
}
