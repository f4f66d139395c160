// A record type (struct, structured, a Zarr v2 structured dtype): its
// fields in declared order with byte offsets, packed with no padding as the
// struct page lays them out, and its leaves (nested structs flattened,
// depth first), from which the core's descriptor is built. numpy's idea:
// one description per record type that every operation walks.
import { describe, invalidMetadata, prefix, ZarrCodecError } from "../errors.js";

// The core's bounds (src/types/data_type.h): a record must fit a scratch
// block, and its leaves stay few.
const MAX_RECORD_BYTES = 64 * 1024;
const MAX_LEAVES = 4096;
const MAX_FIELD_NAME = 256;

/**
 * @typedef {object} RecordField
 * @property {string} name
 * @property {import("./data-type.js").DataType} type
 * @property {number[]} shape   a Zarr v2 field's shape ([] for one value)
 * @property {number} count     values: the product of shape
 * @property {number} offset    bytes from the record's start
 * @property {number} bytes
 * @property {"<" | ">" | undefined} order  a v2 field's own byte order
 *
 * @typedef {object} RecordLeaf  a field that is not a struct, at any depth
 * @property {string[]} path     field names from the outer record
 * @property {import("./data-type.js").DataType} type
 * @property {number[]} shape
 * @property {number} count
 * @property {number} offset     bytes from the outer record's start
 * @property {"<" | ">" | undefined} order
 */

export class RecordType {
  /** @type {RecordField[]} */
  fields;
  /** @type {RecordLeaf[]} */
  leaves;
  /** Bytes of one record. */
  bytes;
  /** The core's descriptor: "struct:int32,uint8,float64*3>". */
  descriptor;

  constructor(fields, leaves, bytes) {
    this.fields = fields;
    this.leaves = leaves;
    this.bytes = bytes;
    this.descriptor =
      "struct:" +
      leaves.map((l) => `${l.type.descriptor}${l.count > 1 ? `*${l.count}` : ""}${l.order ?? ""}`).join(",");
  }

  /**
   * Checks and lays out `fields` ({ name, type, shape?, order? } with the
   * type still as metadata gives it); `parseType(where, type)` makes it a
   * DataType.
   * @param {string} where
   * @param {string} kind "struct", "structured" or a v2 dtype, for messages
   */
  static from(where, kind, fields, parseType) {
    const names = new Set();
    const out = [];
    const leaves = [];
    let offset = 0;
    fields.forEach((field, i) => {
      const { name, shape = [], order } = field;
      if (typeof name !== "string" || name === "") {
        throw invalidMetadata(where, `${kind} field ${i} must have a non-empty string name, got ${describe(name)}`);
      }
      if (name.length > MAX_FIELD_NAME) {
        throw invalidMetadata(where, `${kind} field ${i}'s name is longer than ${MAX_FIELD_NAME} characters`);
      }
      if (names.has(name)) throw invalidMetadata(where, `${kind} has two fields named ${JSON.stringify(prefix(name, 64))}`);
      names.add(name);
      const type = parseType(`${where}: ${kind} field ${JSON.stringify(prefix(name, 64))}`, field.type);
      const count = shape.reduce((a, b) => a * b, 1);
      if (type.record && shape.length) {
        throw new ZarrCodecError(
          "UNSUPPORTED_DATA_TYPE",
          `${where}: ${kind} field ${JSON.stringify(prefix(name, 64))} is a struct with a shape [${shape.join(", ")}], which this package does not support`,
        );
      }
      const bytes = type.bytes * count;
      if (bytes === 0 || offset + bytes > MAX_RECORD_BYTES) {
        throw new ZarrCodecError(
          "UNSUPPORTED_DATA_TYPE",
          bytes === 0
            ? `${where}: ${kind} field ${JSON.stringify(prefix(name, 64))} has no bytes`
            : `${where}: a ${kind} record larger than ${MAX_RECORD_BYTES} bytes is not supported`,
        );
      }
      out.push({ name, type, shape, count, offset, bytes, order });
      if (type.record) {
        for (const leaf of type.record.leaves) {
          leaves.push({ ...leaf, path: [name, ...leaf.path], offset: offset + leaf.offset });
        }
      } else {
        leaves.push({ path: [name], type, shape, count, offset, order });
      }
      if (leaves.length > MAX_LEAVES) {
        throw new ZarrCodecError("UNSUPPORTED_DATA_TYPE", `${where}: a ${kind} with more than ${MAX_LEAVES} fields is not supported`);
      }
      offset += bytes;
    });
    return new RecordType(out, leaves, offset);
  }
}
