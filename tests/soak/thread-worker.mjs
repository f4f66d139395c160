// One of several worker_threads using the package at once: random packbits
// cases, each decode checked against a plain bit loop, each encode against
// the input.
import { parentPort, workerData } from "node:worker_threads";
import { PackBitsCodec, ready } from "../../js/index.js";

const CASES = [
  { dataType: "bool", configuration: {}, bits: 1, first: 0, signed: false, Array: Uint8Array },
  { dataType: "uint16", configuration: { last_bit: 11 }, bits: 12, first: 0, signed: false, Array: Uint16Array },
  { dataType: "int16", configuration: { first_bit: 3, last_bit: 12 }, bits: 10, first: 3, signed: true, Array: Int16Array },
  { dataType: "int4", configuration: {}, bits: 4, first: 0, signed: true, Array: Int8Array },
  { dataType: "uint32", configuration: { first_bit: 5, last_bit: 27 }, bits: 23, first: 5, signed: false, Array: Uint32Array },
];

let x = workerData.seed | 1;
const next = () => {
  x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
  return x >>> 0;
};

await ready();
let ok = 0;
let wrong = 0;
for (let round = 0; round < workerData.rounds; round++) {
  const c = CASES[next() % CASES.length];
  const n = 1 + (next() % 5000);
  const packed = Uint8Array.from({ length: Math.ceil((n * c.bits) / 8) }, () => next() & 255);
  const tail = n * c.bits % 8;
  if (tail) packed[packed.length - 1] &= (1 << tail) - 1; // padding bits 0
  const codec = PackBitsCodec.fromConfig(c.configuration, { dataType: c.dataType, shape: [n] });
  const { data } = codec.decode(packed);
  let right = data.length === n;
  for (let i = 0; i < n && right; i++) {
    let v = 0;
    for (let j = 0; j < c.bits; j++) {
      const pos = i * c.bits + j;
      v += ((packed[pos >> 3] >> (pos & 7)) & 1) * 2 ** j;
    }
    if (c.signed && v >= 2 ** (c.bits - 1)) v -= 2 ** c.bits;
    right = data[i] === v * 2 ** c.first;
  }
  right &&= Buffer.compare(Buffer.from(codec.encode({ data })), Buffer.from(packed)) === 0;
  if (right) ok++;
  else wrong++;
}
parentPort.postMessage({ ok, wrong });
