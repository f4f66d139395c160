// Several Web Workers decode at once; every result is checked against a
// plain bit loop here in the page.
import { randomBytes as random } from "/tests/js/support/reference.js";
const WORKERS = 4;
const ROUNDS = 5;
const CASES = [
  { dataType: "bool", configuration: {}, bits: 1, first: 0, signed: false },
  { dataType: "uint16", configuration: { last_bit: 11 }, bits: 12, first: 0, signed: false },
  { dataType: "int16", configuration: { first_bit: 3, last_bit: 12 }, bits: 10, first: 3, signed: true },
  { dataType: "int4", configuration: {}, bits: 4, first: 0, signed: true },
];

// The spec's decode, one bit at a time.
function reference({ bits, first, signed }, packed, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let j = 0; j < bits; j++) {
      const pos = i * bits + j;
      v |= ((packed[pos >> 3] >> (pos & 7)) & 1) << j;
    }
    if (signed && (v >> (bits - 1)) & 1) v -= 1 << bits;
    out.push(v * 2 ** first);
  }
  return out;
}

const workers = Array.from({ length: WORKERS }, () => new Worker("./codec-worker.js", { type: "module" }));
const jobs = [];
let id = 0;
for (let round = 0; round < ROUNDS; round++) {
  workers.forEach((worker, w) => {
    const c = CASES[(round + w) % CASES.length];
    const n = 1000 + 97 * w + 13 * round;
    const packed = random(Math.ceil((n * c.bits) / 8), 1 + id);
    const expected = reference(c, packed, n);
    const job = { id: id++, worker: w };
    jobs.push(new Promise((resolve) => {
      const listener = ({ data }) => {
        if (data.id !== job.id) return;
        worker.removeEventListener("message", listener);
        const ok = !data.error && data.values.length === n && data.values.every((v, i) => v === expected[i]);
        resolve({ ...job, dataType: c.dataType, ok, error: data.error ?? null });
      };
      worker.addEventListener("message", listener);
    }));
    worker.postMessage({ id: job.id, configuration: c.configuration, dataType: c.dataType, shape: [n], packed: packed.buffer }, [packed.buffer]);
  });
}
window.result = await Promise.all(jobs);
