// A chunk's values after its array -> bytes codec: the chain's array ->
// array codecs (codec-chain.js: arrayToArray, first first; decoded last
// first) and read's `dtype` (the cast to the type the caller asked for,
// by cast_value's rules: rounding nearest-even, out of range clamped).
//
// The codecs are the package's own (js/array-to-array/), made as register()
// makes them for zarrita, so read and zarr.get decode alike. Where every
// step is one the wasm core runs as plain IEEE arithmetic (a conversion
// to float32 or float64 that is exact, or rounds to nearest-even; scale
// and offset in float32 or float64; numcodecs' FixedScaleOffset on floats),
// the steps become a value program (src/values/value_program.h) that runs
// in wasm between decompressing and placing; every other chain is decoded
// by the codecs themselves, in JS, into a chunk that is then placed.
import { CastValueCodec } from "../../array-to-array/cast-value.js";
import { arrayCast } from "../../array-to-array/cast-arrays.js";
import { DECODE_DESCRIPTION } from "../../array-to-array/decode-description.js";
import { FILTER_CODECS } from "../../array-to-array/filters.js";
import { castFunction } from "../../array-to-array/numeric-cast.js";
import { numericType } from "../../array-to-array/numeric-types.js";
import { ScaleOffsetCodec } from "../../array-to-array/scale-offset.js";
import { ShuffleFilterCodec } from "../../array-to-array/shuffle-filter.js";
import { ZarrCodecError } from "../../errors.js";
import { v2FixedScaleOffset } from "../../zarrita/v2-fixed-scale-offset.js";

const V3_CODECS = new Map([
  ["cast_value", CastValueCodec],
  ["scale_offset", ScaleOffsetCodec],
  // A Zarr v2 shuffle before another filter (codec-chain.js).
  ["numcodecs.shuffle", ShuffleFilterCodec],
]);

// The element types of a value program (ValueType in value_program.h).
const VALUE_TYPES = new Map([
  ["uint8", 1], ["int8", 2], ["uint16", 3], ["int16", 4], ["uint32", 5], ["int32", 6],
  ["float16", 7], ["bfloat16", 8], ["float32", 9], ["float64", 10],
]);
const FLOATS = new Set(["float32", "float64"]);
// Conversions every value of which is exact (no rounding, no range).
const EXACT_TO_FLOAT32 = new Set(["uint8", "int8", "uint16", "int16", "float16", "bfloat16", "float32"]);
const CONVERT = 1;
const SCALE_OFFSET = 2; // the page's: an overflow or NaN from numbers is an error
const NUMPY_SCALE_OFFSET = 3; // numcodecs' FixedScaleOffset: IEEE's infinities

/**
 * The chain's array -> array codecs, made in order, each told the data
 * type, shape and fill the one before hands on (as zarrita 0.7 tells
 * them), and the type the array -> bytes codec then decodes.
 * @param {import("../plan/codec-chain.js").Chain} chain
 * @param {{dataType: string, chunkShape: number[], fillValue: unknown}} array
 * @returns {{codecs: object[], encodedType: string}}
 */
export function arrayToArrayCodecs(chain, array) {
  const listed = Array.isArray(chain.listed) ? chain.listed : undefined;
  let meta = { dataType: array.dataType, shape: array.chunkShape, fillValue: array.fillValue, codecs: listed };
  const codecs = [];
  for (const entry of chain.arrayToArray ?? []) {
    // The listed entry itself where there is one: zarrita 0.7's
    // conversion of a v2 filter is told by its very configuration object.
    const configuration = listed?.find((c) => c?.name === entry.name && sameJson(c.configuration, entry.configuration))?.configuration ?? entry.configuration;
    const standIn = entry.name === "scale_offset" || entry.name === "cast_value" ? v2FixedScaleOffset(entry.name, configuration, meta) : undefined;
    const Codec = V3_CODECS.get(entry.name) ?? FILTER_CODECS.get(entry.name);
    if (!standIn && !Codec) throw new ZarrCodecError("UNKNOWN_CODEC", `read: no array -> array codec ${JSON.stringify(entry.name)}`);
    const codec = standIn ?? Codec.fromConfig(configuration, meta);
    codecs.push(codec);
    meta = codec.getEncodedMeta?.(meta) ?? meta;
  }
  return { codecs, encodedType: String(meta.dataType) };
}

const sameJson = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * read's cast of a chunk's values of `from` to `to` (both numeric types
 * cast_value takes), or undefined where they are the same.
 */
export function outputCast(from, to) {
  if (to === undefined || to === from) return undefined;
  const source = numericType(from);
  const target = numericType(to);
  if (!source || !target) {
    throw new ZarrCodecError("INVALID_INPUT", `read: dtype ${JSON.stringify(to)} from ${JSON.stringify(from)}: read converts between numeric types only (int8..uint64, float16, float32, float64, ...)`);
  }
  const where = `read (dtype ${from} -> ${to})`;
  const cast = arrayCast(source, target, castFunction(where, source, target, { rounding: "nearest-even", outOfRange: "clamp" }));
  return {
    description: { op: "cast", from, to, rounding: "nearest-even", outOfRange: "clamp", decodeMapped: false },
    cast,
  };
}

// A conversion as program steps, or undefined where wasm does not run it.
function convertSteps(from, to, rounding, outOfRange) {
  if (from === to) return [];
  if (!FLOATS.has(to) || !VALUE_TYPES.has(from)) return undefined;
  const exact = to === "float64" || EXACT_TO_FLOAT32.has(from);
  // Rounded to nearest-even as IEEE does; a float64 past float32's range
  // is an infinity, as cast_value's clamp makes it for a target with
  // infinities (with no out_of_range it is an error, which JS raises).
  if (!exact && (rounding !== "nearest-even" || (from === "float64" && outOfRange !== "clamp"))) return undefined;
  return [{ op: CONVERT, from, to, scale: 1, offset: 0 }];
}

function scaleOffsetSteps(type, scale, offset, op = SCALE_OFFSET) {
  if (!FLOATS.has(type) || typeof scale !== "number" || typeof offset !== "number" || scale === 0 || Number.isNaN(scale)) return undefined;
  return [{ op, from: type, to: type, scale, offset }];
}

function stepsOf(description) {
  switch (description?.op) {
    case "identity":
      return [];
    case "cast":
      return description.decodeMapped ? undefined : convertSteps(description.from, description.to, description.rounding, description.outOfRange);
    case "scale_offset":
      return scaleOffsetSteps(description.type, description.scale, description.offset);
    case "fixedscaleoffset": {
      // numpy: e / scale in `divided`, + offset in `added`, astype(dtype).
      const { astype, divided, added, dtype, scale, offset } = description;
      if (added !== divided || !FLOATS.has(dtype)) return undefined;
      const parts = [convertSteps(astype, divided, "nearest-even", "clamp"), scaleOffsetSteps(divided, scale, offset, NUMPY_SCALE_OFFSET), convertSteps(divided, dtype, "nearest-even", "clamp")];
      return parts.every(Boolean) ? parts.flat() : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The value program of a chunk's decode (the codecs decoded last first,
 * then read's cast), as the float64 words value_program.h parses, or
 * undefined where a step is not one wasm runs.
 * @param {object[]} codecs arrayToArrayCodecs' codecs, first first
 * @param {{description: object} | undefined} cast outputCast's
 */
export function valueProgram(codecs, cast) {
  const descriptions = [...codecs].reverse().map((c) => c[DECODE_DESCRIPTION]);
  if (cast) descriptions.push(cast.description);
  const steps = [];
  for (const description of descriptions) {
    const more = stepsOf(description);
    if (!more) return undefined;
    steps.push(...more);
  }
  if (steps.length === 0 || steps.length > 4) return undefined;
  const words = new Float64Array(1 + 5 * steps.length);
  words[0] = steps.length;
  steps.forEach((s, i) => words.set([s.op, VALUE_TYPES.get(s.from), VALUE_TYPES.get(s.to), s.scale, s.offset], 1 + 5 * i));
  return { words, input: steps[0].from, output: steps.at(-1).to };
}
