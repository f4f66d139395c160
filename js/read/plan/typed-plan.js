// read(arr, selection, { dtype }): the array's values cast to another
// numeric type by cast_value's rules (rounding nearest-even, out of range
// clamped), as viewers want them (float32 or uint8 textures: GPUs take no
// float64, and often no float16). The plan of such a read is the array's
// own (plan.js) with the output's container and element size, the fill
// cast the same way, and a decoder that casts each chunk's values in the
// same pass (decode/values-decoder.js); where zarrita decodes the chunks,
// each chunk it decodes is cast (`convert`). Made once per array and type;
// it shares the array's own shard reader (its indexes) with every other
// plan of the array (plan.js shardAccess).
import { describe, ZarrCodecError } from "../../errors.js";
import { numericType } from "../../array-to-array/numeric-types.js";
import { chunkDecoder } from "../decode/chunk-decoder.js";
import { outputCast } from "../decode/value-steps.js";

const typedPlans = new WeakMap(); // base plan -> Map(dtype -> Promise<plan>)

/** Checks read's `dtype` option: a numeric type's name, the array's own type, or undefined. */
export function checkDtype(dtype, arr) {
  if (dtype === undefined || numericType(dtype) || (typeof dtype === "string" && dtype === arr?.dtype)) return;
  throw new ZarrCodecError("INVALID_INPUT", `read: dtype must name a numeric data type ("float32", "uint8", "int16", "float64", ...), got ${describe(dtype)}`);
}

// One element's bytes of `from` cast to `to`; where the fill has no value
// of `to` (a NaN fill read as uint8), the refusal, which the fetch stage
// raises only for a chunk that is missing (chunk-source.js): a read whose
// chunks all exist never needs the fill.
function castFill(fill, from, to, cast, elementBytes) {
  const Source = numericType(from).container();
  const one = new Source(fill.buffer.slice(fill.byteOffset, fill.byteOffset + fill.byteLength));
  try {
    const out = cast.cast(one);
    return { fill: new Uint8Array(out.buffer, out.byteOffset, out.byteLength).slice(), fillRefusal: undefined };
  } catch (error) {
    if (!(error instanceof ZarrCodecError)) throw error;
    const why = error.message.replace(/^read \(dtype [^)]*\): /, "");
    const fillRefusal = (where) =>
      new ZarrCodecError(error.code, `${where} is missing, and its fill value cannot be read as ${to} (read's dtype): ${why}`, { cause: error });
    // Never placed: the fetch stage refuses a missing chunk first.
    return { fill: new Uint8Array(elementBytes), fillRefusal };
  }
}

async function makeTypedPlan(arr, base, dtype) {
  const from = arr.dtype;
  if (!numericType(from) || base.elementBytes === 0) {
    throw new ZarrCodecError("INVALID_INPUT", `read: dtype ${JSON.stringify(dtype)} asks for a cast of ${describe(from)} values, and read casts numeric types only`);
  }
  const cast = outputCast(from, dtype);
  const Container = numericType(dtype).container();
  const elementBytes = Container.BYTES_PER_ELEMENT;
  const plan = {
    ...base,
    Container,
    elementBytes,
    outputType: dtype,
    ...(base.fill === undefined ? { fill: undefined, fillRefusal: undefined } : castFill(base.fill, from, dtype, cast, elementBytes)),
    decoder: undefined,
    pool: undefined,
    // A chunk zarrita decoded, its values cast.
    convert: (chunk) => ({ data: cast.cast(chunk.data), shape: chunk.shape, stride: chunk.stride }),
  };
  if (base.decoder && base.chain) {
    const decoder = await chunkDecoder(base.chain, { dataType: from, chunkShape: base.za.chunkShape, elementBytes, fillValue: base.za.fillValue, outputType: dtype });
    if (decoder.unsupported) plan.viaZarrita = decoder.unsupported;
    else plan.decoder = decoder;
  }
  if (!plan.decoder) plan.viaZarrita ??= "its chunks are decoded by zarrita, then cast";
  return plan;
}

/** The plan of `arr`'s values as `dtype`, from its own plan `base`. */
export function typedPlanOf(arr, base, dtype) {
  let byType = typedPlans.get(base);
  if (!byType) typedPlans.set(base, (byType = new Map()));
  let plan = byType.get(dtype);
  if (!plan) {
    plan = makeTypedPlan(arr, base, dtype);
    byType.set(dtype, plan);
    plan.catch(() => byType.delete(dtype));
  }
  return plan;
}
