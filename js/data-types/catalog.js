// The arrays one withDataTypes store presented, by path: what the store
// needs to map their chunk keys and answer storedDataType, the refusals of
// arrays a consolidated document holds (raised when that array is read),
// and the tickets of their stored codecs. One catalog per store; its
// tickets are revoked when the store is collected.
import { requireRegistration } from "../zarrita/registration.js";
import { issueTicket, revokeTickets, STORED_CODEC } from "./stored-codec.js";

const METADATA_FILES = new Set(["zarr.json", ".zarray", ".zattrs", ".zgroup", ".zmetadata"]);

// Tickets live as long as their store.
const cleanup =
  typeof FinalizationRegistry === "function" ? new FinalizationRegistry((tickets) => revokeTickets(tickets.values())) : undefined;

/** "/a/b" and "/a/b/" -> "/a/b"; the root is "". */
export const normalizePath = (path) => (path === "/" ? "" : path.replace(/\/$/, ""));

export class ArrayCatalog {
  /** path -> Presented, or { refused } */
  #arrays = new Map();
  /** path -> the stored data type of an array zarrita reads as it is */
  #native = new Map();
  /** path -> { fillElement } of such an array, where its fill was read */
  #nativeFills = new Map();
  /** path -> the Zarr format (2, 3) of the metadata last read for it */
  #formats = new Map();
  /** path -> { file, bytes }: the document zarrita was given */
  #documents = new Map();
  /** path -> how an array's shards hold their index ({ atStart, bytes }) */
  #shardIndexes = new Map();
  /** a conversion's key -> its ticket */
  #tickets = new Map();

  /** @param {object} owner the store; its collection revokes the tickets */
  constructor(owner) {
    cleanup?.register(owner, this.#tickets);
  }

  /**
   * Records a conversion of the stored codec and names it; the same
   * conversion (an array opened again) keeps its ticket.
   */
  ticket(conversion, where) {
    requireRegistration(where, `its stored ${conversion.dataType.name} values are read through the codec ${STORED_CODEC}`);
    const key = JSON.stringify([
      conversion.codec,
      conversion.dataType.descriptor,
      conversion.adapter,
      conversion.dropTrailing,
      Boolean(conversion.strings),
      Boolean(conversion.byteStrings),
      Boolean(conversion.fortran),
    ]);
    const ticket = issueTicket(conversion, this.#tickets.get(key));
    this.#tickets.set(key, ticket);
    return ticket;
  }

  /** @param {import("./present-v3.js").Presented} presented */
  set(path, presented) {
    this.#native.delete(path);
    this.#arrays.set(path, presented);
  }

  /**
   * An array zarrita reads as it is: its stored type is kept
   * (storedDataType), and `fill` where its fill was read: a record like a
   * presented array's (`native: true`) where zarrita cannot fill with it,
   * so that its missing chunks are filled or refused as theirs are; else
   * `{ fillElement }` for read.
   */
  setNative(path, stored, fill) {
    if (fill?.native) {
      this.#native.delete(path);
      this.#arrays.set(path, fill);
      return;
    }
    this.#arrays.delete(path);
    this.#native.set(path, stored);
    if (fill) this.#nativeFills.set(path, fill);
    else this.#nativeFills.delete(path);
  }

  /** The Zarr format of the document zarrita opened for an array. */
  setFormat(path, format) {
    this.#formats.set(path, format);
  }

  getFormat(path) {
    return this.#formats.get(normalizePath(String(path ?? "")));
  }

  /**
   * The array document (zarr.json or .zarray) last given to zarrita for
   * `path`, as given: read takes its codecs from it without a request.
   */
  setDocument(path, file, bytes) {
    this.#documents.set(path, { file, bytes });
  }

  getDocument(path) {
    return this.#documents.get(normalizePath(String(path ?? "")));
  }

  /**
   * How a sharded array's shards hold their index: at their start or end
   * (`atStart`), and its `bytes` (16 per inner chunk, 4 more with a
   * crc32c); undefined for an array without shards.
   */
  setShardIndex(path, index) {
    if (index) this.#shardIndexes.set(path, index);
    else this.#shardIndexes.delete(path);
  }

  /** The shard index layout of the array a chunk key belongs to, or undefined. */
  shardIndexOf(key) {
    return this.#shardIndexes.size > 0 ? locateIn(this.#shardIndexes, key)?.p : undefined;
  }

  /** The fill an array zarrita reads as it is was read with, if any. */
  getNativeFill(path) {
    return this.#nativeFills.get(normalizePath(String(path ?? "")));
  }

  /** An array of a consolidated document whose metadata was refused. */
  refuse(path, error) {
    this.#native.delete(path);
    this.#nativeFills.delete(path);
    this.#arrays.set(path, { refused: error });
  }

  /** No array (any more), or none withDataTypes read the metadata of. */
  forget(path) {
    this.#arrays.delete(path);
    this.#documents.delete(path);
    this.#native.delete(path);
    this.#nativeFills.delete(path);
  }

  /** What was recorded of a presented (or refused) array. */
  get(path) {
    return this.#arrays.get(normalizePath(String(path ?? "")));
  }

  /** The stored data type of an array zarrita reads as it is, or undefined. */
  getNative(path) {
    return this.#native.get(normalizePath(String(path ?? "")));
  }

  /**
   * The presented array a chunk key belongs to (its nearest ancestor path
   * that is one), with the rest of the key; undefined for a metadata key
   * or one of no presented array.
   * @returns {{p: object, path: string, rest: string} | undefined}
   */
  locate(key) {
    if (this.#arrays.size === 0) return undefined;
    return locateIn(this.#arrays, key);
  }
}

/**
 * The entry of `map` (by array path) a chunk key belongs to: its nearest
 * ancestor path that is one, with the rest of the key; undefined for a
 * metadata key or one of no such array.
 */
function locateIn(map, key) {
  // Every "/" from the right: "/a/b/c/0" tries "/a/b/c", "/a/b", "/a", ""
  // (the root), then stops.
  for (let end = key.lastIndexOf("/"); end >= 0; end = end > 0 ? key.lastIndexOf("/", end - 1) : -1) {
    const path = key.slice(0, end);
    const p = map.get(path);
    if (!p) continue;
    const rest = key.slice(end + 1);
    return METADATA_FILES.has(rest) ? undefined : { p, path, rest };
  }
  return undefined;
}
