// `window.sceneViewer`: the viewer's state for tests, assistive tools and `scene-agent bench viewer`
// (README: Test hooks). One object, updated in place, so that a reference taken once stays current.

import * as THREE from "three";
import type { SceneCamera, ViewTarget, ViewerHandle } from "../../contracts";
import type { SessionMode } from "../data/api";
import { itemsOf, unionBounds, type ViewModel } from "../data/model";
import type { Stage } from "../stage/stage";

// "abandoned": the session is still open, but the program that asked for the pick has stopped waiting for it.
export type ViewerState = "loading" | "ready" | "submitting" | "submitted" | "cancelled" | "expired" | "abandoned" | "error";

export interface Timings {
  /** Milliseconds from the start of the load (navigation start for the page's first view, the open() call for
   * later ones) to: the manifest read, the first frame with points drawn, and every point drawn. */
  manifestMs: number | null;
  firstFrameMs: number | null;
  readyMs: number | null;
}

export interface PickRecord {
  code: string | null;
  method: "gpu" | "raycast";
  /** The pick itself. */
  pickMs: number;
  /** From the click event to the frame with the new highlight drawn (GPU finished). */
  clickToFrameMs: number;
}

export interface SceneViewerHook {
  /** "selection" while a session asks the user to pick (whatever its state), "view" otherwise (view-only, whole scene). */
  mode: "view" | "selection";
  /** The session's mode (room | objects | multi-room) in selection, else null. */
  selectionMode: SessionMode | null;
  state: ViewerState;
  sessionId: string | null;
  candidates: string[];
  selected: string[];
  hovered: string | null;
  drillRoom: string | null;
  /**
   * Rooms (their structure) and objects in the view, and their points: fetched so far, and in all. In a tiled
   * view the points fetched are the tiles' and those of the items loaded whole beside them (which the tiles
   * hold too, hidden: those count twice).
   */
  itemCount: number;
  pointsLoaded: number;
  pointsTotal: number;
  /** How the view is drawn: every item's points ("items") or level-of-detail tiles under a point budget ("tiles"). */
  lod: "items" | "tiles";
  /** Points drawn by the last frame, and the most drawn by any frame of this view. */
  pointsDrawn: number;
  pointsDrawnMax: number;
  /** In a tiled view: tiles the camera needs are still on their way (the frame after they arrive is finer). */
  tilesPending: boolean;
  timings: Timings;
  lastPick: PickRecord | null;
  /** The camera now, in scene coordinates, as the chat sends it with a message (null while nothing is shown). */
  readonly camera: SceneCamera | null;
  /** The handle mountViewer returned (open a target in place, as the chat panel does). */
  handle?: ViewerHandle;
  /** Page (client) coordinates where a click lands on this item (a candidate: on one of its points), or null. */
  screenPosition(code: string): { x: number; y: number } | null;
  /** For the benchmark: which picker canvas clicks use, and one pick at client coordinates without clicking. */
  bench: {
    picker: "gpu" | "raycast";
    pickAt(x: number, y: number, method: "gpu" | "raycast"): { code: string | null; ms: number };
    /** Draw one frame now and wait for the GPU: its duration. */
    frameMs(): number;
    /** Turn the camera `degrees` around its target (as orbiting does), draw that frame and wait for the GPU: its duration. */
    orbitFrameMs(degrees: number): number;
  };
}

declare global {
  interface Window {
    sceneViewer: SceneViewerHook;
  }
}

export function emptyTimings(): Timings {
  return { manifestMs: null, firstFrameMs: null, readyMs: null };
}

/** A new target is being loaded: nothing of the previous one is left in the hook. */
export function resetHook(hook: SceneViewerHook, target: ViewTarget): void {
  Object.assign(hook, {
    mode: target.selectionMode ? "selection" : "view", selectionMode: null, sessionId: target.sessionId,
    candidates: [], selected: [], hovered: null, drillRoom: null, itemCount: 0, pointsLoaded: 0, pointsTotal: 0,
    lod: "items", timings: emptyTimings(), lastPick: null,
  });
}

type Method = "gpu" | "raycast";

/** The hook with nothing loaded yet; `deps` reach into the app for what is computed on demand. */
export function createHook(deps: {
  stage(): Stage | null;
  camera(): SceneCamera | null;
  codeAt(x: number, y: number, method: Method): string | null;
  screenPosition(code: string): { x: number; y: number } | null;
}): SceneViewerHook {
  return {
    mode: "view", selectionMode: null, state: "loading", sessionId: null, candidates: [], selected: [], hovered: null,
    drillRoom: null, itemCount: 0, pointsLoaded: 0, pointsTotal: 0, lod: "items", timings: emptyTimings(), lastPick: null,
    get pointsDrawn() {
      return deps.stage()?.pointsDrawn ?? 0;
    },
    get pointsDrawnMax() {
      return deps.stage()?.pointsDrawnMax ?? 0;
    },
    get tilesPending() {
      return deps.stage()?.tiles?.pending ?? false;
    },
    get camera() {
      return deps.camera();
    },
    screenPosition: deps.screenPosition,
    bench: {
      picker: "gpu",
      pickAt: (x, y, method) => {
        const rect = deps.stage()?.canvas.getBoundingClientRect();
        const began = performance.now();
        const code = rect ? deps.codeAt(x - rect.left, y - rect.top, method) : null;
        return { code, ms: performance.now() - began };
      },
      frameMs: () => {
        const began = performance.now();
        deps.stage()?.drawNow();
        return performance.now() - began;
      },
      orbitFrameMs: (degrees) => {
        const stage = deps.stage();
        const began = performance.now();
        stage?.orbit(degrees);
        stage?.drawNow();
        return performance.now() - began;
      },
    },
  };
}

/**
 * Client coordinates of an item's centre; for a pickable one whose centre is covered by another item,
 * one of its own points (a sample of them, nearest the centre first) that the GPU pick confirms.
 */
export function screenPositionOf(stage: Stage, model: ViewModel, targets: string[], code: string): { x: number; y: number } | null {
  const bounds = unionBounds(itemsOf(model, code).map((i) => i.bounds));
  if (!bounds) return null;
  const rect = stage.canvas.getBoundingClientRect();
  const client = (p: { x: number; y: number }) => ({ x: rect.left + p.x, y: rect.top + p.y });
  const centre = stage.project(new THREE.Vector3(...bounds.min).add(new THREE.Vector3(...bounds.max)).multiplyScalar(0.5));
  const id = targets.indexOf(code) + 1;
  if (!id || (centre && stage.pick(centre.x, centre.y) === id)) return centre && client(centre);
  const spots: { x: number; y: number; d: number }[] = [];
  const add = (p: THREE.Vector3) => {
    const s = stage.project(p);
    if (s) spots.push({ ...s, d: centre ? Math.hypot(s.x - centre.x, s.y - centre.y) : 0 });
  };
  for (const cloud of stage.allClouds().filter((c) => c.pickId === id && c.group.visible)) {
    const { positions, min, max, count } = cloud.data;
    const step = Math.max(1, Math.floor(count / 150));
    for (let k = 0; k < count; k += step) {
      const at = (a: number) => min[a] + (positions[3 * k + a] / 65535) * (max[a] - min[a]);
      add(new THREE.Vector3(at(0), at(1), at(2)));
    }
  }
  const tiles = stage.tiles;
  for (const { node, data } of tiles?.drawnTiles() ?? []) { // a tiled view: the item's points among the drawn tiles'
    const step = Math.max(1, Math.floor(data.count / 2000));
    for (let k = 0; k < data.count; k += step) {
      const item = data.items[k];
      if (tiles!.states.pickIdOf(item) !== id) continue;
      const at = (a: number) => node.min[a] + (data.positions[3 * k + a] / 65535) * node.side + (a === 2 ? tiles!.states.liftOf(item) : 0);
      add(new THREE.Vector3(at(0), at(1), at(2)));
    }
  }
  spots.sort((a, b) => a.d - b.d);
  const hit = spots.slice(0, 60).find((s) => stage.pick(s.x, s.y) === id);
  return hit ? client(hit) : centre && client(centre);
}
