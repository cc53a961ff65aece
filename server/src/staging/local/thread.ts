import type { RoomType, Style } from '@roomstager/contracts';
import { Worker } from 'node:worker_threads';
import { InvalidImageError, NoRoomError, type StageInput, type StageOutput, type StagingEngine } from '../engine.ts';
import { asOutput, parseStageInput, stageToJpegs, type StageOptions } from './pipeline.ts';

export interface WorkerRequest {
  id: number;
  image: Uint8Array;
  style: Style;
  roomType: RoomType;
  options: StageOptions;
}

/** What went wrong in the thread, so the caller gets the same error class as on its own thread. */
export type WorkerFailure = 'invalid-image' | 'no-room' | 'error';

export type WorkerReply = { id: number; ok: true; images: Uint8Array[] } | { id: number; ok: false; failure: WorkerFailure; message: string };

export function failureOf(err: unknown): WorkerFailure {
  return err instanceof InvalidImageError ? 'invalid-image' : err instanceof NoRoomError ? 'no-room' : 'error';
}

function errorFor(failure: WorkerFailure, message: string): Error {
  return failure === 'invalid-image' ? new InvalidImageError(message) : failure === 'no-room' ? new NoRoomError(message) : new Error(message);
}

interface Job {
  request: WorkerRequest;
  signal: AbortSignal;
  resolve: (jpegs: Buffer[]) => void;
  reject: (err: unknown) => void;
}

/**
 * The local engine on a worker thread, so the HTTP server's event loop stays free while a photo
 * is staged (about a second of CPU). Jobs run one at a time per engine; an aborted running job
 * terminates the worker (the next job starts a fresh one). If no worker can be started at all,
 * jobs run on the calling thread instead.
 */
export class ThreadedLocalEngine implements StagingEngine {
  readonly name = 'local';
  private worker: Worker | null = null;
  private ready: Promise<boolean> | null = null;
  private readonly queue: Job[] = [];
  private running: Job | null = null;
  private nextId = 1;
  /** Set once a worker failed to start: from then on jobs run on the calling thread. */
  private threadsUnavailable = false;

  /** `entry` is the worker's TypeScript module (replaceable so tests can simulate a failure). */
  constructor(private readonly entry: URL = new URL('./worker-entry.ts', import.meta.url)) {}

  async stage(input: StageInput): Promise<StageOutput> {
    const { image, style, roomType, signal, look, variations } = parseStageInput(input);
    signal.throwIfAborted();
    const jpegs = await new Promise<Buffer[]>((resolve, reject) => {
      const request = { id: this.nextId++, image: new Uint8Array(image), style, roomType, options: { look, variations } };
      const job: Job = { request, signal, resolve, reject };
      signal.addEventListener('abort', () => this.abort(job), { once: true });
      this.queue.push(job);
      void this.pump();
    });
    return asOutput(jpegs);
  }

  /**
   * Starts the worker (which starts its render helper) before any job: the first staging after
   * a start would otherwise spend about a second booting them. An idle worker does not keep the
   * process alive.
   */
  async warm(): Promise<void> {
    if (this.threadsUnavailable) return;
    await this.startWorker();
    this.unrefIfIdle();
  }

  /** An idle worker must not keep the process alive; a busy one must. */
  private unrefIfIdle(): void {
    if (!this.running && this.queue.length === 0) this.worker?.unref();
  }

  /** Stops the worker; pending jobs are rejected. */
  async close(): Promise<void> {
    const jobs = [...this.queue, ...(this.running ? [this.running] : [])];
    this.queue.length = 0;
    this.running = null;
    for (const job of jobs) job.reject(new Error('The staging engine was closed.'));
    await this.stopWorker();
  }

  private abort(job: Job): void {
    const reason: unknown = job.signal.reason;
    const i = this.queue.indexOf(job);
    if (i >= 0) {
      this.queue.splice(i, 1);
      job.reject(reason);
      return;
    }
    if (this.running === job) {
      this.running = null;
      job.reject(reason);
      void this.stopWorker().then(() => this.pump());
    }
  }

  private async stopWorker(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }

  private startWorker(): Promise<boolean> {
    if (this.ready) return this.ready;
    const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), { workerData: { entry: this.entry.href } });
    this.worker = worker;
    let started = false;
    this.ready = new Promise<boolean>((resolve) => {
      const onReady = (msg: unknown) => {
        if (typeof msg === 'object' && msg !== null && 'ready' in msg) {
          worker.off('message', onReady);
          started = true;
          resolve(true);
        }
      };
      worker.on('message', onReady);
      worker.once('error', () => resolve(false));
      // Terminated while booting (closed, or its job aborted): it will never say it is ready.
      worker.once('exit', () => resolve(false));
    });
    worker.on('message', (msg: WorkerReply | { ready: true }) => {
      if ('ready' in msg) return;
      const job = this.running;
      if (!job || job.request.id !== msg.id) return;
      this.running = null;
      if (msg.ok) job.resolve(msg.images.map((i) => Buffer.from(i.buffer, i.byteOffset, i.byteLength)));
      else job.reject(errorFor(msg.failure, msg.message));
      void this.pump();
    });
    worker.on('error', (err) => {
      if (this.worker === worker) {
        this.worker = null;
        this.ready = null;
      }
      // A worker that never started is handled by pump (the job runs here instead).
      if (!started) return;
      // A crash mid-job fails that job; the next job starts a new worker.
      const job = this.running;
      this.running = null;
      job?.reject(err);
      void this.pump();
    });
    return this.ready;
  }

  private async pump(): Promise<void> {
    this.unrefIfIdle();
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    this.running = job;
    const ok = this.threadsUnavailable ? false : await this.startWorker();
    if (this.running !== job) return;
    if (!ok || !this.worker) {
      // No worker thread available (for example no TypeScript loader): stage here instead.
      this.threadsUnavailable = true;
      this.running = null;
      const { image, style, roomType, options } = job.request;
      stageToJpegs(Buffer.from(image), style, roomType, job.signal, options).then(job.resolve, job.reject);
      void this.pump();
      return;
    }
    this.worker.ref();
    this.worker.postMessage(job.request, [job.request.image.buffer as ArrayBuffer]);
  }
}
