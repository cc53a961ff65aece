import type { RoomType, Style } from '@roomstager/contracts';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { Plan } from './pipeline.ts';
import { reflectionSize } from './render.ts';
import { FLOOR_GRID_SIDE, type FloorRows } from './shadows.ts';

/**
 * A second thread that takes a share of each variation's render (docs/decisions/0029-local-engine-render-helper.md).
 * The staging's thread plans the staging (analysis, sets, layouts) and sends the plan; then both
 * threads claim units of work from counters in shared memory: both rasterise tile rows; then the
 * staging's thread darkens the creases and blurs the furniture (which needs every row) while the
 * helper does the photo's shadows and the floor's reflection, the tasks compositing needs last;
 * whichever thread is free first takes a task left. A unit's pixels do not depend on which
 * thread made them, so the staged photo is byte for byte what one thread makes alone.
 */

/** Slots of a part's control array. */
const ROW = 0;
const TASK = 1;
/** Units the helper has claimed (or is claiming) and not finished. */
const BUSY = 2;
/** Set when a thread failed in a unit or gave up waiting (the part's pixels are not to be trusted). */
const FAILED = 3;
/** Set by the staging's thread when it gives up (an error or an abort): the helper claims nothing more. */
const CANCELLED = 4;
/** The floor shadow grid's next row, and how many rows are in. */
const FLOOR_ROW = 5;
const FLOOR_DONE = 6;
/** Which staging the part serves now: parts are reused, and a helper late for an earlier one must not touch it. */
const EPOCH = 7;
/** Tile rows finished (by either thread): the crease pass reads every row. */
const ROWS_DONE = 8;
const SLOTS = 9;
/**
 * How long a thread waits for the other's rows of the floor grid. It waits without its event
 * loop, so it cannot see the other die: past this it does the variation alone.
 */
const FLOOR_PATIENCE_MS = 10_000;
const FLOOR_WAIT_SLICE_MS = 20;

/** The tasks besides rows: the photo's shadows, the floor's reflection. */
export const TASKS = 2;

/** One variation's render in shared memory, and the counters its units are claimed from. */
export interface SharedPart {
  control: Int32Array;
  /** The staging it was handed out for (EPOCH when it was); the helper's copy keeps its own. */
  epoch: number;
  width: number;
  height: number;
  color: Float32Array;
  alpha: Float32Array;
  depth: Float32Array;
  shadow: Float32Array;
  /** The floor's shadow grid (shadows.ts), filled row by row by both threads. */
  floor: Float32Array;
  /** The floor reflection at half size (reflectionSize), used only when the floor is glossy. */
  reflection: Float32Array;
}

function newPart(width: number, height: number): SharedPart {
  const plane = (n: number) => new Float32Array(new SharedArrayBuffer(n * 4));
  const r = reflectionSize(width, height);
  return {
    control: new Int32Array(new SharedArrayBuffer(SLOTS * 4)),
    epoch: 0,
    width,
    height,
    color: plane(width * height * 3),
    alpha: plane(width * height),
    depth: plane(width * height).fill(Infinity),
    shadow: plane(width * height),
    floor: plane(FLOOR_GRID_SIDE * FLOOR_GRID_SIDE),
    reflection: plane(r.width * r.height * 3),
  };
}

/** Whether the helper may go on with its copy of a part: the staging neither gave up nor moved on. */
function current(part: SharedPart): boolean {
  return Atomics.load(part.control, EPOCH) === part.epoch && Atomics.load(part.control, CANCELLED) === 0;
}

type Slot = 'row' | 'task' | 'floor';
const SLOT = { row: ROW, task: TASK, floor: FLOOR_ROW } as const;

/**
 * Claims the next unit from `slot` for the helper: its index, or -1 when none is left or the
 * part is not current; a claimed unit is held (BUSY) until released. BUSY is raised before the
 * check, so the staging's thread, which waits for BUSY to fall before it reuses a part, never
 * reuses one under a unit claimed for an earlier staging.
 */
export function claimForHelper(part: SharedPart, slot: Slot, end: number): number {
  const c = part.control;
  Atomics.add(c, BUSY, 1);
  const i = current(part) ? Atomics.add(c, SLOT[slot], 1) : end;
  if (i < end) return i;
  release(part);
  return -1;
}

export function release(part: SharedPart): void {
  Atomics.sub(part.control, BUSY, 1);
}

export function isCancelled(part: SharedPart): boolean {
  return !current(part);
}

export function markFailed(part: SharedPart): void {
  if (current(part)) Atomics.store(part.control, FAILED, 1);
}

/** Claims the next unit for the staging's own thread (it waits for the helper afterwards, so it needs no hold). */
export function claim(part: SharedPart, slot: Slot): number {
  return Atomics.add(part.control, SLOT[slot], 1);
}

/**
 * The rasteriser's tile rows as one thread takes them (`next` gives one past the last when none
 * is left): each row handed back counts as finished, and the helper holds the row it rasterises.
 */
export function tileRows(part: SharedPart, helper: boolean, rows: number): { next(): number; drop(): void } {
  let held = false;
  let rasterising = false;
  const drop = () => {
    if (held) release(part);
    held = false;
    rasterising = false;
  };
  return {
    next: () => {
      if (rasterising) Atomics.add(part.control, ROWS_DONE, 1);
      drop();
      const row = helper ? claimForHelper(part, 'row', rows) : claim(part, 'row');
      held = helper && row >= 0;
      rasterising = row >= 0 && row < rows;
      return rasterising ? row : rows;
    },
    /** Lets go of a row without counting it in (the thread failed in it). */
    drop,
  };
}

/**
 * The floor grid's rows as one thread takes them (the helper holding each while it computes
 * it). Neither thread holds a row while it waits for the other's. A thread that gives up on the
 * wait marks the part failed, so the other stops too, and the staging's thread renders the
 * variation alone.
 */
export function floorRows(part: SharedPart, helper: boolean): FloorRows & { drop(): void } {
  const c = part.control;
  let held = false;
  const failed = () => Atomics.load(c, FAILED) !== 0 || !current(part);
  return {
    plane: part.floor,
    next: (rows) => {
      if (!helper) return failed() ? rows : claim(part, 'floor');
      const row = failed() ? -1 : claimForHelper(part, 'floor', rows);
      held = row >= 0;
      return held ? row : rows;
    },
    finished: () => {
      Atomics.add(c, FLOOR_DONE, 1);
      Atomics.notify(c, FLOOR_DONE);
      if (held) release(part);
      held = false;
    },
    /** Lets go of a row the helper holds without counting it in (it failed in it). */
    drop: () => {
      if (held) release(part);
      held = false;
    },
    allIn: (rows) => {
      const deadline = Date.now() + FLOOR_PATIENCE_MS;
      for (;;) {
        const done = Atomics.load(c, FLOOR_DONE);
        if (done >= rows && current(part)) return true;
        if (failed() || Date.now() > deadline) {
          markFailed(part);
          return false;
        }
        Atomics.wait(c, FLOOR_DONE, done, FLOOR_WAIT_SLICE_MS);
      }
    },
  };
}

/** What the helper is sent: the staging's plan (the room crosses as data: reviveRoom) and its parts. */
export interface HelpRequest {
  plan: Plan;
  style: Style;
  roomType: RoomType;
  parts: SharedPart[];
}

const POLL_MS = 1;
/** Free parts kept: a staging's variations at most, twice over for two stagings at once. */
const MAX_FREE = 6;

export class RenderHelper {
  private worker: Worker | null = null;
  /** Whether the current worker reported ready (true) or died first (false). */
  private booted: Promise<boolean> = Promise.resolve(false);
  /** Set once a helper failed to start: from then on the staging's thread does everything. */
  private unavailable = false;
  /** Parts the helper may still hold units of, to release if it dies. */
  private readonly outstanding = new Set<SharedPart>();
  /** Parts free for the next staging: reused, since shared memory is freed only once both threads have collected it. */
  private readonly free: SharedPart[] = [];
  /** Variations the staging's thread rendered again alone because the helper failed in them (the tests read it). */
  redone = 0;

  /** `entry` is the helper's TypeScript module (replaceable so tests can simulate a failure). */
  constructor(private readonly entry: URL = new URL('./helper-entry.ts', import.meta.url)) {}

  /**
   * Parts for a staging's `count` variations at the render size, reused where a free one fits:
   * its epoch moves on first (a late helper leaves it alone), then, once no unit is held, it is
   * cleared.
   */
  async lease(count: number, width: number, height: number, signal: AbortSignal): Promise<SharedPart[]> {
    const parts: SharedPart[] = [];
    for (let k = 0; k < count; k++) {
      const i = this.free.findIndex((p) => p.width === width && p.height === height);
      const part = i >= 0 ? this.free.splice(i, 1)[0]! : newPart(width, height);
      const c = part.control;
      part.epoch = Atomics.add(c, EPOCH, 1) + 1;
      while (Atomics.load(c, BUSY) > 0) {
        signal.throwIfAborted();
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      for (const slot of [ROW, TASK, FAILED, CANCELLED, FLOOR_ROW, FLOOR_DONE, ROWS_DONE]) Atomics.store(c, slot, 0);
      if (i >= 0) {
        part.color.fill(0);
        part.alpha.fill(0);
        part.depth.fill(Infinity);
        part.shadow.fill(0);
        part.reflection.fill(0);
      }
      parts.push(part);
    }
    return parts;
  }

  /** Hands the helper its share of a staging; false when no helper can run (the caller then does everything). */
  help(request: HelpRequest): boolean {
    const worker = this.start();
    if (!worker) return false;
    for (const p of request.parts) this.outstanding.add(p);
    worker.postMessage(request);
    return true;
  }

  /** Resolves once every tile row of `part` is in: false when the helper failed (or died) on the way. */
  async rowsIn(part: SharedPart, rows: number, signal: AbortSignal): Promise<boolean> {
    const c = part.control;
    while (Atomics.load(c, ROWS_DONE) < rows && Atomics.load(c, FAILED) === 0) {
      signal.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return Atomics.load(c, FAILED) === 0;
  }

  /**
   * Resolves once the helper holds no unit of `part`, having finished or given up. Returns false
   * when its work on the part cannot be used (it failed, or died holding a unit).
   */
  async settled(part: SharedPart, signal: AbortSignal): Promise<boolean> {
    while (Atomics.load(part.control, BUSY) > 0) {
      signal.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    this.outstanding.delete(part);
    return Atomics.load(part.control, FAILED) === 0;
  }

  /** The staging is done with these parts (finished or given up): the helper claims nothing more of them, and they are free again. */
  giveBack(parts: SharedPart[]): void {
    for (const p of parts) {
      Atomics.store(p.control, CANCELLED, 1);
      this.outstanding.delete(p);
      if (this.free.length < MAX_FREE) this.free.push(p);
    }
  }

  /** Starts the helper if it is not running, and resolves once it can take work: false when it cannot, or not within `patienceMs`. */
  async ready(patienceMs = 60_000): Promise<boolean> {
    if (!this.start()) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), patienceMs)));
    try {
      return await Promise.race([this.booted, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private start(): Worker | null {
    if (this.worker || this.unavailable) return this.worker;
    let started = false;
    let booted: (ok: boolean) => void = () => {};
    this.booted = new Promise((resolve) => (booted = resolve));
    const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), { workerData: { entry: this.entry.href } });
    worker.on('message', (msg: unknown) => {
      if (typeof msg === 'object' && msg !== null && 'ready' in msg) {
        started = true;
        booted(true);
      }
    });
    const died = () => {
      booted(false);
      if (this.worker === worker) this.worker = null;
      if (!started) this.unavailable = true;
      // A unit it held is lost: the staging's thread redoes that variation alone. What it finished stands.
      for (const p of this.outstanding) {
        if (Atomics.load(p.control, BUSY) > 0) Atomics.store(p.control, FAILED, 1);
      }
      for (const p of [...this.outstanding, ...this.free]) Atomics.store(p.control, BUSY, 0);
      this.outstanding.clear();
    };
    worker.once('error', died);
    worker.once('exit', died);
    // Only the staging's own wait keeps the process alive (after the listeners: adding one refs the worker again).
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** `ENGINE_HELPER`: `off` stages on one thread (server/src/config.ts validates it at start). */
export const engineHelperSetting = z.enum(['on', 'off']);
const helperEnv = z.object({ ENGINE_HELPER: z.preprocess((v) => (v === '' ? undefined : v), engineHelperSetting.optional()) });

let shared: RenderHelper | null | undefined;

/**
 * The process's (or engine thread's) helper: one per thread that stages, none on a single core
 * or with ENGINE_HELPER=off (the unit tests' setting: they run two files at once).
 */
export function defaultHelper(): RenderHelper | null {
  if (shared === undefined) {
    const off = helperEnv.parse(process.env).ENGINE_HELPER === 'off';
    shared = off || availableParallelism() < 2 ? null : new RenderHelper();
  }
  return shared;
}
