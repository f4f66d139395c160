// withScheduler(store, scheduler, { priority }): a store whose requests
// wait for the slots of a read scheduler (createReadScheduler), so that
// zarr.get, and the libraries built on zarrita (ome-zarr.js, ngff-zarr,
// vizarr), share one budget of requests in flight with read() and with
// each other, at this store's priority. A request whose caller's signal
// aborts while it waits (zarrita 0.7 passes zarr.get's signal to the store)
// is dropped, never sent; one in flight is the store's own to abort, as
// without the wrapper. (zarrita 0.5 gives the store no signal: there every
// request is sent.) zarr.get gives the store nothing else of its options, so
// the priority is the store's: wrap a store once per priority a viewer
// wants (an overview level, the visible tiles, a prefetch ring), or give a
// function that reads the view.
//
// It works on any store with get (and getRange): zarrita 0.5's, 0.6's and
// 0.7's FetchStore and FileSystemStore, and store extensions; in zarrita
// 0.7's extendStore as `(store) => withScheduler(store, scheduler)`. It
// sits beside the entries: it wraps what zarrita sees, as register does.
import { describe, isPlainObject, ZarrCodecError } from "./errors.js";
import { abortReason } from "./read/abort-signal.js";
import { delegate } from "./data-types/delegate.js";
import { checkPriority, priorityNow } from "./read/fetch/scheduling/priority.js";
import { queueOf, SCHEDULED_BY, slotOf } from "./read/fetch/scheduling/read-scheduler.js";
import { linkOf } from "./read/fetch/scheduling/link-estimate.js";
import { now } from "./read/clock.js";

const WHERE = "withScheduler";

/**
 * @param {{get: Function, getRange?: Function}} store
 * @param {object} scheduler  from createReadScheduler
 * @param {{priority?: number | (() => number)}} [options]  this store's
 *   priority (default 0): a number, or a function asked again each time a
 *   slot frees
 */
export function withScheduler(store, scheduler, options) {
  if (typeof store?.get !== "function") {
    throw new ZarrCodecError("INVALID_INPUT", `${WHERE}: expected a store (an object with get(key)), got ${describe(store)}`);
  }
  const queue = queueOf(scheduler, WHERE);
  if (options !== undefined && !isPlainObject(options)) {
    throw new ZarrCodecError("INVALID_INPUT", `${WHERE}: options must be an object ({ priority }), got ${describe(options)}`);
  }
  const priority = checkPriority(options?.priority, WHERE);
  const link = linkOf(store);

  // One call of the store, once a slot is granted, at the store's priority.
  async function scheduled(opts, bytes, call, suffix = false) {
    // A call of a read with a scheduler holds a slot of it already: counted
    // there, it takes none here (two slots for one request, of one
    // scheduler or of two waiting on each other, could deadlock).
    if (opts?.[SCHEDULED_BY]) return call();
    const signal = opts?.signal;
    if (signal?.aborted) throw abortReason(signal);
    const ticket = await slotOf(queue, { priority: () => priorityNow(priority, WHERE), signal, bytes, link });
    const started = now();
    let got;
    try {
      got = await call();
      return got;
    } finally {
      const length = got instanceof Uint8Array ? got.byteLength : 0;
      if (got !== undefined) link.observe(started, now(), length, suffix);
      queue.release(ticket, { bytes: length, aborted: Boolean(signal?.aborted) });
    }
  }

  const overrides = {
    get: (key, opts) => scheduled(opts, 0, () => store.get(key, opts)),
  };
  if (typeof store.getRange === "function") {
    overrides.getRange = (key, range, opts) => scheduled(opts, range?.length ?? range?.suffixLength ?? 0, () => store.getRange(key, range, opts), range?.suffixLength !== undefined);
  }
  return delegate(store, overrides);
}
