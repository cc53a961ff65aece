import { Worker } from 'node:worker_threads';
import type { StructureCheck } from './verdict.ts';

export interface LockRequest {
  id: number;
  before: Uint8Array;
  after: Uint8Array;
}

export type LockReply = { id: number; ok: true; check: StructureCheck; image: Uint8Array | null } | { id: number; ok: false; message: string };

export interface LockedAnswer {
  check: StructureCheck;
  /** The locked composite, JPEG, at the original's size. */
  image: Buffer;
}

interface Task {
  request: LockRequest;
  signal: AbortSignal;
  resolve: (answer: LockedAnswer) => void;
  reject: (err: unknown) => void;
}

const BOOT = new URL('../local/worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./worker-entry.ts', import.meta.url);

/**
 * The lock (check and full-resolution composite, seconds of CPU at 12 MP) on a long-lived thread
 * of its own, so the server's event loop stays free and the thread's code stays warm (a cold
 * thread took about twice as long). One answer at a time; an aborted running answer terminates
 * the thread, and the next answer starts a fresh one. The thread keeps the process alive only while it works.
 */
class LockThread {
  private worker: Worker | null = null;
  private running: Task | null = null;
  private readonly queue: Task[] = [];
  private nextId = 1;

  run(before: Buffer, after: Buffer, signal: AbortSignal): Promise<LockedAnswer> {
    signal.throwIfAborted();
    return new Promise<LockedAnswer>((resolve, reject) => {
      const task: Task = { request: { id: this.nextId++, before: new Uint8Array(before), after: new Uint8Array(after) }, signal, resolve, reject };
      signal.addEventListener('abort', () => this.abort(task), { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  private pump(): void {
    if (this.running) return;
    const task = this.queue.shift();
    // An idle thread must not keep the process alive; a busy one must, or a script waiting
    // for its answer would exit.
    if (!task) {
      this.worker?.unref();
      return;
    }
    this.running = task;
    this.worker ??= this.start();
    this.worker.ref();
    this.worker.postMessage(task.request);
  }

  private start(): Worker {
    const worker = new Worker(BOOT, { workerData: { entry: ENTRY.href } });
    worker.on('message', (reply: LockReply) => {
      const task = this.running;
      if (worker !== this.worker || !task || task.request.id !== reply.id) return;
      this.running = null;
      if (!reply.ok) task.reject(new Error(`structure lock failed: ${reply.message}`));
      else if (!reply.image) task.reject(new Error('structure lock made no composite'));
      else task.resolve({ check: reply.check, image: Buffer.from(reply.image.buffer, reply.image.byteOffset, reply.image.byteLength) });
      this.pump();
    });
    const lost = (err: Error) => {
      if (worker !== this.worker) return;
      this.worker = null;
      const task = this.running;
      this.running = null;
      task?.reject(err);
      this.pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`structure lock thread exited (${code})`)));
    return worker;
  }

  private abort(task: Task): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      task.reject(task.signal.reason);
      return;
    }
    if (this.running !== task) return;
    this.running = null;
    task.reject(task.signal.reason);
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    this.pump();
  }
}

const shared = new LockThread();

/** Locks one answer on the shared lock thread. */
export function lockOnThread(before: Buffer, after: Buffer, signal: AbortSignal): Promise<LockedAnswer> {
  return shared.run(before, after, signal);
}
