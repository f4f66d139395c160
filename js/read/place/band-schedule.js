// The bands of one read (bands.js) through their lives: each comes alive
// (allocated in wasm memory) as the realm's budget allows
// (scratch-budget.js), takes the chunks that arrived before it, and once
// every chunk it waits for is placed is copied out to the output in one
// piece and freed, its bytes given back. At most LIVE_BYTES of a read's
// bands are alive at once (or one larger band).
import { LIVE_BYTES } from "./bands.js";
import { detached } from "./output.js";
import { give, request, tryTake } from "./scratch-budget.js";
import { allocateBand, copyBandOut, freeBand } from "./wasm-placement.js";

/**
 * @param {object} s
 * @param {object} s.module   the wasm module the bands live in
 * @param {import("./bands.js").Band[]} s.bands
 * @param {{bytes: Uint8Array, length: number, rowBytes: number}} s.output
 *   the output's bytes, their length when the read began (a transferred
 *   `into` has none left) and the bytes of one row of its first axis
 * @param {{aborted: boolean} | undefined} s.signal
 * @param {import("../run-chunks.js").Ending} s.ending
 * @param {(c: object, band: import("./bands.js").Band) => void} s.place
 *   a chunk that waited for a band placed into it, once it is alive
 * @returns {{pump: () => void, placedAll: Promise<void>, end: () => void}}
 */
export function bandSchedule({ module, bands, output, signal, ending, place }) {
  let alive = 0; // bytes of bands alive
  let next = 0; // the first band not yet alive (or granted)
  let bandsLeft = bands.length;
  let allPlaced;
  const placedAll = new Promise((resolve) => {
    allPlaced = resolve;
  });
  if (bandsLeft === 0) allPlaced();
  // The band waiting for its bytes of the realm's budget.
  let cancelWait;

  // A band whose bytes were taken from the budget: allocated, and the
  // chunks that arrived before it placed into it.
  function bringAlive(band) {
    try {
      band.at = allocateBand(module, band.bytes);
    } catch (error) {
      give(band.bytes);
      band.state = "done";
      throw error;
    }
    band.state = "alive";
    alive += band.bytes;
    const waiting = band.waiting;
    band.waiting = [];
    for (const c of waiting) place(c, band);
  }

  // A band freed and its bytes given back.
  function retire(band) {
    freeBand(module, band.at);
    band.state = "done";
    alive -= band.bytes;
    give(band.bytes);
  }

  // Alive bands whose chunks are all placed: copied out and retired.
  // Whether any was.
  function copyOutComplete() {
    let any = false;
    for (let i = 0; i < next; i++) {
      const band = bands[i];
      if (band.state !== "alive" || band.chunksLeft > 0) continue;
      // A transferred `into` has no bytes left to write to.
      if (output.bytes.byteLength !== output.length) throw detached();
      copyBandOut(module, band.at, band.bytes, output.bytes, band.r0 * output.rowBytes);
      retire(band);
      if (--bandsLeft === 0) allPlaced();
      any = true;
    }
    return any;
  }

  // The next band waits for its turn in the budget; when granted it comes
  // alive and the schedule goes on.
  function waitForBudget(band) {
    cancelWait = request(band.bytes, {
      signal,
      granted() {
        cancelWait = undefined;
        if (ending.failed) {
          give(band.bytes);
          return;
        }
        try {
          next += 1;
          bringAlive(band);
          pump();
        } catch (error) {
          ending.fail(error);
        }
      },
      aborted(reason) {
        cancelWait = undefined;
        ending.fail(reason);
      },
    });
  }

  // As many bands as fit come alive, in order. Whether any did.
  function bringAliveWhatFits() {
    let any = false;
    while (!cancelWait && next < bands.length && (alive === 0 || alive + bands[next].bytes <= LIVE_BYTES)) {
      const band = bands[next];
      if (!tryTake(band.bytes)) {
        // On to the bands completed meanwhile: freeing them is what lets
        // this one (or another read's) through.
        waitForBudget(band);
        break;
      }
      next += 1;
      bringAlive(band);
      any = true;
    }
    return any;
  }

  // Bands that are complete are copied out and freed; then as many as fit
  // come alive, taking the chunks that were waiting for them; until
  // neither moves.
  function pump() {
    let progress = true;
    while (progress) {
      const copied = copyOutComplete();
      progress = bringAliveWhatFits() || copied;
    }
  }

  return {
    pump,
    placedAll,
    // Every band freed (the alive ones given back), the wait for the
    // budget cancelled.
    end() {
      cancelWait?.();
      cancelWait = undefined;
      for (const band of bands) {
        if (band.state === "alive") retire(band);
        band.state = "done";
      }
    },
  };
}
