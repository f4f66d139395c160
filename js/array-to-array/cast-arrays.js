// A chunk of one numeric type into a fresh chunk of another, element by
// element through a pure cast (numeric-cast.js, or scale_offset's
// arithmetic), reading and writing each type's container
// (numeric-types.js): bit codes for the narrow floats, BigInt for 64-bit
// integers. A source of at most 16 bits has at most 65536 values, so its
// casts are computed once per code into a table (an error kept for the
// codes that fail, thrown only where such a code occurs).
import { ZarrCodecError, describe, withArticle } from "../errors.js";
import { codeOfValue, valueOfCode } from "../floats/float-formats.js";

/** Whether `data` holds `type`'s values as numbers rather than bit codes (a native Float16Array). */
function holdsCodes(type, data) {
  return type.codes && !(type.native?.() && data instanceof type.native());
}

/** The value at `i` of a chunk of `type`. */
export function readerOf(type, data) {
  if (holdsCodes(type, data)) {
    const format = type.format;
    return (i) => valueOfCode(format, data[i]);
  }
  return (i) => data[i];
}

/** Puts `value` (of `type`) at `i` of `out`. */
export function writerOf(type, out) {
  if (holdsCodes(type, out)) {
    const format = type.format;
    return (i, value) => {
      out[i] = codeOfValue(format, value);
    };
  }
  return (i, value) => {
    out[i] = value;
  };
}

/** Checks that a chunk's data is an array of `type`'s container. */
export function checkChunkData(where, type, data) {
  const Expected = type.container();
  const fits = ArrayBuffer.isView(data) && (data instanceof Expected || (type.codes && data.BYTES_PER_ELEMENT === Expected.BYTES_PER_ELEMENT && !(data instanceof Float32Array) && !(data instanceof Float64Array)));
  if (!fits) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${where}: expected a chunk of ${type.name} values in ${withArticle(Expected.name)}, got ${describe(data)}`,
    );
  }
}

/**
 * Sub-byte types (int2/int4, uint2/uint4, float4, float6) sit in bytes: a
 * byte holding more than the type's bits is no value of it, and is
 * refused rather than read as some other code.
 */
function checkNarrow(type, data) {
  const [lo, hi] = type.kind === "int" ? [type.min, type.max] : [0, 2 ** type.bits - 1];
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (v < lo || v > hi) {
      const what = type.codes ? `codes 0..${hi}` : `values ${lo}..${hi}`;
      throw new ZarrCodecError("INVALID_INPUT", `${type.name} chunk: element ${i} is ${v}, which is no ${type.name} (expected ${what})`);
    }
  }
}

/**
 * A cast of whole chunks from `source` to `target` through `cast`. Small
 * sources (<= 16 bits) go through a per-code table built on first use.
 * @returns {(data: ArrayLike<number | bigint>) => ArrayLike<number | bigint>}
 */
export function arrayCast(source, target, cast) {
  const Out = target.container();
  const tabled = source.bits <= 16 && !(source.native?.());
  let table;
  let failures;
  const buildTable = () => {
    const size = 2 ** source.bits;
    table = new Out(size);
    failures = new Map();
    const write = writerOf(target, table);
    for (let code = 0; code < size; code++) {
      let value;
      if (source.codes) value = valueOfCode(source.format, code);
      else value = source.signed && code >= size / 2 ? code - size : code;
      try {
        write(code, cast(value));
      } catch (error) {
        failures.set(code, error);
      }
    }
  };
  return (data) => {
    const n = data.length;
    const out = new Out(n);
    if (tabled) {
      if (!table) buildTable();
      // A code's index in the table: signed containers hold -1 for the
      // code 2^bits - 1, so they are masked; codes and unsigned values are
      // their own index. (Plain loops, no call per element.)
      const mask = source.signed ? 2 ** source.bits - 1 : -1;
      if (source.bits < 8 * source.container().BYTES_PER_ELEMENT) checkNarrow(source, data);
      if (failures.size > 0) {
        for (let i = 0; i < n; i++) {
          const code = data[i] & mask;
          const failure = failures.get(code);
          if (failure) throw failure;
          out[i] = table[code];
        }
      } else if (mask === -1) {
        for (let i = 0; i < n; i++) out[i] = table[data[i]];
      } else {
        for (let i = 0; i < n; i++) out[i] = table[data[i] & mask];
      }
      return out;
    }
    const read = readerOf(source, data);
    const write = writerOf(target, out);
    for (let i = 0; i < n; i++) write(i, cast(read(i)));
    return out;
  };
}
