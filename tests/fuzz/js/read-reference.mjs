// The differential fuzz of `read`: its reference process (read-reference.py,
// zarr-python 2 and numpy in /usr/bin/python3) and its reader (a worker
// thread, read-worker.mjs), each replaced when it dies or does not answer.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * The Python reference, one child process at a time. A request that gets
 * no answer (the process died, or took longer than `deadlineMs`) answers
 * { crashed }, and a new process takes over for the next one. `script`:
 * another reference of this folder (compressed-reference.py).
 */
export class ReferenceProcess {
  #child;
  #pending = new Map();
  #next = 0;
  #script;
  crashes = 0;

  constructor(deadlineMs = 30000, script = "read-reference.py") {
    this.deadlineMs = deadlineMs;
    this.#script = script;
  }

  #start() {
    const script = fileURLToPath(new URL(this.#script, import.meta.url));
    const child = spawn("/usr/bin/python3", [script], { stdio: ["pipe", "pipe", "pipe"] });
    this.#child = child;
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr = (stderr + d).slice(-2000);
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      const answer = JSON.parse(line);
      this.#pending.get(answer.id)?.(answer);
      this.#pending.delete(answer.id);
    });
    child.on("exit", () => {
      if (this.#child === child) this.#child = undefined;
      for (const [id, resolve] of this.#pending) {
        this.crashes++;
        resolve({ crashed: stderr.slice(-500) || "exited" });
        this.#pending.delete(id);
      }
    });
    child.stdin.on("error", () => {}); // a write to a process that died: answered by "exit"
  }

  /** { files, missing, selections } | { unwritable } | { crashed } */
  request(body) {
    if (!this.#child) this.#start();
    const id = this.#next++;
    const child = this.#child;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ id, ...body })}\n`);
      setTimeout(() => {
        if (this.#pending.has(id)) child.kill("SIGKILL");
      }, this.deadlineMs).unref();
    });
  }

  close() {
    this.#child?.stdin.end();
  }
}

/**
 * The reader thread. `run(job)` answers the worker's result, or { hang,
 * selection } after `deadlineMs` (the worker is then replaced). `script`:
 * another reader of this folder (compressed-worker.mjs).
 */
export class Reader {
  #worker;
  #resolve;
  #progress = -1;
  #script;

  constructor(deadlineMs = 30000, script = "./read-worker.mjs") {
    this.deadlineMs = deadlineMs;
    this.#script = script;
  }

  async start() {
    this.#worker = new Worker(new URL(this.#script, import.meta.url));
    this.#worker.on("error", (error) => this.#resolve?.({ crashed: { error: "worker error", message: String(error?.stack ?? error) } }));
    await new Promise((resolve) => this.#worker.once("message", resolve));
    this.#worker.on("message", (m) => {
      if (m.progress !== undefined) this.#progress = m.progress;
      else if (m.done) this.#resolve?.(m.done);
    });
  }

  async run(job) {
    if (!this.#worker) await this.start();
    this.#progress = -1;
    let timer;
    const result = await new Promise((resolve) => {
      this.#resolve = resolve;
      timer = setTimeout(() => resolve({ hang: true, selection: this.#progress }), this.deadlineMs);
      this.#worker.postMessage(job);
    });
    clearTimeout(timer);
    this.#resolve = undefined;
    if (result.hang || result.crashed?.error === "worker error") {
      await this.#worker.terminate();
      this.#worker = undefined;
    }
    return result;
  }

  async stop() {
    await this.#worker?.terminate();
    this.#worker = undefined;
  }
}
