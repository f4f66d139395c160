// A Zarr v2 array's .zarray as withDataTypes presents it to zarrita, for
// the dtypes zarrita lacks: complex ("<c8", ">c16": float components with a
// trailing dimension of 2, the bytes unchanged), datetime64 and
// timedelta64 ("<M8[ns]", ">m8[s]": int64), and float16 ("<f2") where the
// runtime has no Float16Array. zarrita builds v2 codec chains itself, so
// where the bytes need converting (float16 widened) the stored codec goes
// in as the last filter.
import { describe, ZarrCodecError } from "../errors.js";
import { presentFill } from "./fill-value.js";
import { checkShape } from "./present-v3.js";
import { zarritaReads } from "./presentation.js";
import { STORED_CODEC } from "./stored-type-codec.js";

const DTYPE = /^([<>|])(c8|c16|f2|[Mm]8(?:\[(\d*)([A-Za-zμ]+)\])?)$/;

function invalid(where, message) {
  return new ZarrCodecError("INVALID_METADATA", `${where}: ${message}`);
}

/**
 * @param {string} path the array's path, for messages
 * @param {object} zarray
 * @param {"float32" | "bits"} floats
 * @returns {{doc: object, presented: import("./present-v3.js").Presented} | null}
 */
export function presentV2(path, zarray, floats) {
  const where = `withDataTypes: array ${path || "/"}`;
  const match = typeof zarray.dtype === "string" ? DTYPE.exec(zarray.dtype) : null;
  if (!match) return null;
  const [, order, kind, scale] = match;
  if (kind === "f2" && zarritaReads("float16")) return null;
  if (kind.startsWith("M8") || kind.startsWith("m8")) {
    if (scale !== undefined && scale !== "" && !(Number(scale) >= 1 && Number(scale) <= 2 ** 31 - 1)) {
      throw invalid(where, `dtype ${zarray.dtype} has a scale outside 1..2147483647`);
    }
  }
  checkShape(where, "shape", zarray.shape);
  checkShape(where, "chunks", zarray.chunks, { positive: true, rank: zarray.shape.length });
  const separator = zarray.dimension_separator ?? ".";
  if (separator !== "/" && separator !== ".") {
    throw invalid(where, `dimension_separator must be "/" or ".", got ${describe(separator)}`);
  }
  const filters = zarray.filters ?? [];
  const complex = kind === "c8" || kind === "c16";
  const time = kind[1] === "8" && !complex;
  const p = complex
    ? { presented: kind === "c8" ? "float32" : "float64", component: kind === "c8" ? "float32" : "float64", trailing: 2, widen: false, codec: false, kind: "native" }
    : time
      ? { presented: "int64", component: "int64", trailing: 0, widen: false, codec: false, kind: "time" }
      : floats === "bits"
        ? { presented: "uint16", component: "float16", trailing: 0, widen: false, codec: false, kind: "float" }
        : { presented: "float32", component: "float16", trailing: 0, widen: true, codec: true, kind: "float" };
  if (complex && zarray.order === "F") {
    // zarrita would transpose the trailing (real, imaginary) dimension too.
    throw invalid(where, `complex dtype ${zarray.dtype} in Fortran order cannot be presented (the real and imaginary parts would be transposed with the array); only order "C" is supported`);
  }
  if (!time && filters.length) {
    throw invalid(where, `filters ${JSON.stringify(filters.map((f) => f?.id))} would run on the presented ${p.presented} values rather than the stored ${zarray.dtype}; withDataTypes cannot present this array`);
  }
  const fill = presentFill(where, p, zarray.fill_value, { nullable: true });
  const endian = order === ">" ? "big" : "little";
  let dtype = `${order}${{ float32: "f4", float64: "f8", int64: "i8", uint16: "u2" }[p.presented]}`;
  const doc = { ...zarray, fill_value: fill.value };
  if (p.codec) {
    // Widened float16: the stored codec decodes the stored bytes (either
    // byte order); zarrita, told "<f4", adds no bytes codec of its own.
    dtype = "<f4";
    doc.filters = [
      { id: STORED_CODEC, codec: { name: "bytes", configuration: { endian } }, data_type: "float16", floats: "float32" },
    ];
  }
  doc.dtype = dtype;
  if (p.trailing) {
    doc.shape = [...zarray.shape, p.trailing];
    doc.chunks = [...zarray.chunks, p.trailing];
    checkShape(where, "shape with the trailing dimension", doc.shape);
  }
  return {
    doc,
    presented: {
      stored: zarray.dtype,
      trailing: p.trailing,
      encoding: { name: "v2", separator },
      rank: zarray.shape.length + (p.trailing ? 1 : 0),
      presented: p.presented,
      fillParts: fill.parts,
      chunkShape: doc.chunks,
    },
  };
}
