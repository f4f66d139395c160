// Placing chunks of JavaScript values (zarrita's Arrays: strings, bytes):
// each chunk zarrita decoded, its values placed one by one. A missing
// chunk is filled here (each element its own copy of bytes), in proportion
// to what the selection takes of it.
import { describe, ZarrCodecError } from "../../errors.js";
import { chunkWhere } from "../chunk-where.js";
import { countRead } from "../read-counts.js";
import { detached, outputStrides } from "./output.js";

const product = (values) => values.reduce((a, b) => a * b, 1);

/**
 * @param {import("./placer.js").PlaceContext} ctx
 * @returns {import("./placer.js").Placer}
 */
export function valuePlacer({ arr, plan, axes, out, placed, failures }) {
  // Each kept axis's stride in the output (0 where dropped).
  const axisStride = outputStrides(axes);
  // Where zarrita fills (no fill of read's own), a chunk that failed under
  // chunkErrors: "fill" gets the value zarrita fills with.
  const fill = plan.valuesFill ?? { value: plan.za.fillValue };
  const fillValue = fill.bytes ? () => fill.bytes.slice() : () => fill.value;
  const elements = product(plan.za.chunkShape);

  // The chunk's values as a getter and its strides, checked.
  function valuesOf(c, decoded) {
    if (decoded.kind === "fill") return { get: fillValue, stride: axes.map(() => 0) };
    const chunk = decoded.chunk;
    if (!Array.isArray(chunk.data) || chunk.data.length !== elements) {
      // zarr.get would copy such a chunk into the Array as if it were
      // values (bytes, a buffer and offsets): nothing a user could mean.
      throw new ZarrCodecError(
        "INVALID_METADATA",
        `${chunkWhere(arr, plan, c.coords)}: its codecs decoded it into ${describe(chunk.data)}, not the Array of ${elements} values its data type ${describe(arr.dtype)} needs`,
      );
    }
    // A cached chunk's values stay the cache's: bytes go out as copies.
    const get = decoded.fromCache ? (i) => (ArrayBuffer.isView(chunk.data[i]) ? chunk.data[i].slice() : chunk.data[i]) : (i) => chunk.data[i];
    return { get, stride: axes.map((a, i) => (a.virtual ? 0 : chunk.stride[i - (axes[0].virtual ? 1 : 0)])) };
  }

  return {
    deliver(c, decoded) {
      let values;
      try {
        values = valuesOf(c, decoded);
      } catch (error) {
        if (!failures?.absorb(c, error)) throw error;
        values = valuesOf(c, { kind: "fill" });
        decoded = { kind: "fill" };
      }
      if (!decoded.fromCache) countRead(decoded.kind === "fill" ? "filled" : "viaZarrita");
      if (!Array.isArray(out)) throw detached();
      const { get, stride } = values;
      const walk = (axis, src, dst) => {
        if (axis === axes.length) {
          out[dst] = get(src);
          return;
        }
        const m = c.mapping[axis];
        for (let k = 0; k < m.count; k++) {
          walk(axis + 1, src + (m.from + k * m.step) * stride[axis], dst + (m.out + k) * axisStride[axis]);
        }
      };
      walk(0, 0, 0);
      placed(c);
    },
  };
}
