/**
 * The embedded local staging engine (issue 4): furnishes a photo of an empty room offline.
 *
 * pipeline.ts  decode (auto-orient, any colour space) -> analyse at 640 px -> layout -> render at
 *              <= 1600 px -> composite onto the full-size photo -> JPEG
 * analyze.ts   line segments (lines.ts), depth and vertical vanishing points, horizon, yaw, pitch,
 *              roll and focal (vanishing.ts, camera.ts),
 *              room box fit (roombox.ts), windows, doors and blocked wall stretches, floor gloss,
 *              kitchen counters (counters.ts), things standing on the floor and islands (obstacles.ts)
 * layout.ts    per room type, pieces in metres against the best plain wall (bar stools along a
 *              kitchen counter or island), with the rules (inside the floor, clear of openings,
 *              counters, obstacles and each other, in frame, foreground empty)
 * furniture.ts parametric meshes per piece and style (mesh.ts), styles.ts palettes,
 *              materials.ts procedural textures
 * light.ts     the room's radiance from the photo: an environment map, openings as lights, its
 *              spherical-harmonic irradiance
 * render.ts    shading with that light, floor reflections; shadowmap.ts the furniture's
 *              own shadows; raster.ts is the tiled 16-sample z-buffer rasteriser
 * shadows.ts   differential shadows on the photo's floor and walls: ambient occlusion, contact
 *              shadows and the bright openings' soft shadows, marched through the furniture's
 *              occupancy over the floor
 * composite.ts edge blur and grain matched to the photo, shadows
 * thread.ts    the same on a worker thread (worker-boot.mjs, worker-entry.ts)
 * helper.ts    a second thread that gets the staging's plan and takes a share of each variation's
 *              render through shared memory (helper-entry.ts)
 * synthetic.ts empty box rooms with a known camera, for tests and sample renders
 */
import type { StageInput, StageOutput, StagingEngine } from '../engine.ts';
import { asOutput, parseStageInput, stageToJpegs } from './pipeline.ts';
import { ThreadedLocalEngine } from './thread.ts';

export { RENDER_LONG_SIDE, stageDetailed, stageToJpeg, type StagedDetail } from './pipeline.ts';
export { describeSet } from './set.ts';
export { ThreadedLocalEngine } from './thread.ts';

/** The local engine on the calling thread. */
export class LocalStagingEngine implements StagingEngine {
  readonly name = 'local';

  async stage(input: StageInput): Promise<StageOutput> {
    const { image, style, roomType, signal, look, variations } = parseStageInput(input);
    return asOutput(await stageToJpegs(image, style, roomType, signal, { look, variations }));
  }
}

/**
 * The local engine; with `thread` (the default) it stages on a worker thread so the server's
 * event loop stays responsive. Both give identical bytes.
 */
export function createLocalEngine(options: { thread?: boolean } = {}): StagingEngine & { close?: () => Promise<void> } {
  return options.thread === false ? new LocalStagingEngine() : new ThreadedLocalEngine();
}
