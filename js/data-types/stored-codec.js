// "zarr-codecs-wasm.stored": the array -> bytes codec withDataTypes puts in
// the metadata it presents to zarrita, where the stored bytes need
// converting into the presented container (an int4 array presented as
// int8, float8 as float32, records as their bytes, strings as JavaScript
// strings). It decodes the stored bytes straight into the presented
// container and encodes them back.
//
// Its configuration holds only a ticket: an unguessable key to the
// conversion withDataTypes recorded when it presented the array (the
// original codec, the stored type as parsed, the presentation). Nothing a
// store writes is trusted: a configuration without a live ticket is
// refused, so a store cannot name this codec to reinterpret bytes.
//
//   { "name": "zarr-codecs-wasm.stored", "configuration": { "ticket": "zcw-..." } }
//
// For Zarr v2 arrays it arrives as a filter ({ "id": ..., "ticket": ... }),
// which zarrita names "numcodecs.zarr-codecs-wasm.stored" (0.7) or
// "zarr-codecs-wasm.stored" (0.5, 0.6).
import { BytesCodec } from "../codecs/bytes.js";
import { PackBitsCodec } from "../codecs/packbits.js";
import { describe, hasOwn, isPlainObject, ZarrCodecError } from "../errors.js";
import { dataTypeOf } from "../types/data-type.js";
import { ByteStringCodec } from "./byte-string-codec.js";
import { FortranChunks } from "./fortran-chunks.js";
import { StringCodec } from "./string-codec.js";

export const STORED_CODEC = "zarr-codecs-wasm.stored";

const CODECS = new Map([
  ["bytes", BytesCodec],
  ["endian", BytesCodec],
  ["packbits", PackBitsCodec],
]);

/** Whether `name` is an array -> bytes codec the stored codec can run. */
export function isStoredCodecName(name) {
  return CODECS.has(name);
}

/**
 * @typedef {object} Conversion
 * @property {{name: string, configuration?: object}} codec  the stored array -> bytes codec
 * @property {import("../types/data-type.js").DataType} dataType  the codec's type
 * @property {import("../codecs/wasm-codec.js").Adapter} adapter  floats
 * @property {boolean} dropTrailing  the codec's chunk is the presented one
 *   without its trailing dimension (records, raw bytes)
 * @property {boolean} [strings]  fixed_length_utf32 presented as an Array
 *   of JavaScript strings (string-codec.js)
 * @property {boolean} [byteStrings]  byte strings presented as zarrita's,
 *   each chunk's length checked (byte-string-codec.js)
 * @property {boolean} [fortran]  Zarr v2 chunks in order "F" with a
 *   trailing dimension (fortran-chunks.js)
 */

/** ticket -> Conversion, for every presented array of every live store. */
const conversions = new Map();

function newTicket() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `zcw-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Records `conversion` and returns its ticket. `previous`, a ticket the
 * same array had, is reused (re-opening an array adds nothing).
 */
export function issueTicket(conversion, previous) {
  const ticket = previous ?? newTicket();
  conversions.set(ticket, conversion);
  return ticket;
}

/** The conversion a ticket names (read learns a chunk's storage order from it), or undefined. */
export function conversionOf(ticket) {
  return typeof ticket === "string" ? conversions.get(ticket) : undefined;
}

/** Forgets tickets (their store is gone). */
export function revokeTickets(tickets) {
  for (const ticket of tickets) conversions.delete(ticket);
}

/**
 * The conversion behind `ticket` as plain data that crosses postMessage
 * (read's worker pool, js/pool/): the codec, the stored type by its
 * descriptor and the fields codecs read, the adapter's floats; undefined
 * for a ticket that is not live.
 */
export function exportConversion(ticket) {
  const c = conversions.get(ticket);
  if (!c) return undefined;
  const { name, descriptor, lengthBytes, codePoints } = c.dataType;
  return {
    codec: { name: c.codec.name, configuration: c.codec.configuration },
    dataType: { name, descriptor, lengthBytes, codePoints },
    adapter: { floats: c.adapter?.floats },
    dropTrailing: c.dropTrailing,
    strings: Boolean(c.strings),
    byteStrings: Boolean(c.byteStrings),
  };
}

/** Records an exported conversion under its ticket (in a worker's realm). */
export function importConversion(ticket, exported) {
  const { name, descriptor, lengthBytes, codePoints } = exported.dataType;
  const extra = {};
  if (lengthBytes !== undefined) extra.lengthBytes = lengthBytes;
  if (codePoints !== undefined) extra.codePoints = codePoints;
  const dataType = dataTypeOf(`${STORED_CODEC}: ${name}`, descriptor, name, extra);
  conversions.set(ticket, { ...exported, dataType, adapter: exported.adapter.floats === undefined ? {} : exported.adapter });
}

/** Builds the codec a conversion names for a chunk of `shape`. */
export function codecFor(conversion, shape, adapter = {}) {
  if (conversion.byteStrings) return new ByteStringCodec(conversion.dataType.lengthBytes, shape, adapter);
  if (conversion.fortran) return new FortranChunks(codecFor({ ...conversion, fortran: false }, shape, adapter), shape);
  const Codec = CODECS.get(conversion.codec.name);
  const meta = { dataType: conversion.dataType, shape: conversion.dropTrailing ? shape.slice(0, -1) : shape };
  if (conversion.strings) {
    // Code units in a Uint32Array (not zarrita's container), made strings.
    const units = new Codec(conversion.codec.configuration, meta, { ...conversion.adapter, module: adapter.module });
    return new StringCodec(units, conversion.dataType.codePoints, shape);
  }
  return new Codec(conversion.codec.configuration, meta, { ...adapter, ...conversion.adapter, chunkShape: shape });
}

function refused(configuration) {
  return new ZarrCodecError(
    "INVALID_METADATA",
    `${STORED_CODEC}: this codec is withDataTypes' own and cannot be named in stored metadata ` +
      `(its configuration must come from withDataTypes in this session; got ${describe(configuration)})`,
  );
}

/**
 * The codec class zarrita sees under STORED_CODEC, with zarrita's
 * containers (adapter: wrapBool, wrapStrings, wrapByteStrings).
 */
export function storedCodec(adapter) {
  return {
    fromConfig(configuration, meta) {
      const ticket = isPlainObject(configuration) && hasOwn(configuration, "ticket") ? configuration.ticket : undefined;
      const conversion = typeof ticket === "string" ? conversions.get(ticket) : undefined;
      if (!conversion) throw refused(configuration);
      return codecFor(conversion, Array.isArray(meta?.shape) ? meta.shape : [], adapter);
    },
  };
}
