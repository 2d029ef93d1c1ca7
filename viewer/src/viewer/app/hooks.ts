// `window.sceneViewer`: the viewer's state for tests, assistive tools and `scene-agent bench viewer`
// (README: Test hooks). A read-only view of the app's state (store.ts): getters, so that a reference taken once
// stays current and the viewer never reads anything back from it. The benchmark's two switches are the
// exceptions (scene_bench/viewer_page.py): which picker clicks use, and the last pick, cleared before one it times.

import * as THREE from "three";
import type { SceneCamera, ViewerHandle } from "../../contracts";
import type { SessionMode, Vec3 } from "../data/api";
import type { MeasureKind, Measurement } from "../measure/geometry";
import type { MinimapHook } from "../minimap/minimap";
import type { ViewHook } from "../panel/viewControls";
import { codeAt, type PickMethod, type PickRecord } from "../picking/clicks";
import { pointsCentre } from "../picking/nearest";
import { screenPositionOf } from "../picking/screenPosition";
import { orbit } from "../stage/cameraMoves";
import type { ClipBox } from "../stage/clipBox";
import type { Stage } from "../stage/stage";
import type { SearchHook } from "./wayfinding";
import type { ViewerState, Timings, ViewerStore } from "./store";

export interface SceneViewerHook {
  /** "selection" while a session asks the user to pick (whatever its state), "view" otherwise (view-only, whole scene). */
  readonly mode: "view" | "selection";
  /** The session's mode (room | objects | multi-room) in selection, else null. */
  readonly selectionMode: SessionMode | null;
  readonly state: ViewerState;
  readonly sessionId: string | null;
  readonly candidates: string[];
  readonly selected: string[];
  readonly hovered: string | null;
  readonly drillRoom: string | null;
  /** The floor shown alone (null: all floors). */
  readonly floor: string | null;
  /** The codes the camera was last framed on: the view's own framing, a row's, an answer's or a code link's. */
  readonly framed: string[];
  /** A pick's candidates left out of its first framing (listed with "Show"), and the labels the last frame drew. */
  readonly far: string[];
  readonly labelsDrawn: number;
  /**
   * Rooms (their structure) and objects in the view, and their points: fetched so far, and in all. In a tiled
   * view the points fetched are the tiles' and those of the items loaded whole beside them (which the tiles
   * hold too, hidden: those count twice).
   */
  readonly itemCount: number;
  readonly pointsLoaded: number;
  readonly pointsTotal: number;
  /** How the view is drawn: every item's points ("items") or level-of-detail tiles under a point budget ("tiles"). */
  readonly lod: "items" | "tiles";
  /** Points drawn by the last frame, and the most drawn by any frame of this view. */
  readonly pointsDrawn: number;
  readonly pointsDrawnMax: number;
  /** In a tiled view: tiles the camera needs are still on their way (the frame after they arrive is finer). */
  readonly tilesPending: boolean;
  readonly timings: Timings;
  /** The measuring tool in use (distance, height, area), or null. */
  readonly measuring: MeasureKind | null;
  /** The last measurement finished in this view (null until one is): value in metres (an area in square metres),
   *  points in scene coordinates. */
  readonly lastMeasurement: Measurement | null;
  /** The object whose info card is open, or null. */
  readonly infoCode: string | null;
  /** Client coordinates where a scene point (scene coordinates) is drawn, or null off the canvas. */
  screenPoint(p: [number, number, number]): { x: number; y: number } | null;
  /** The last click's pick; the benchmark sets it to null before a click it times. */
  lastPick: PickRecord | null;
  /** The camera now, in scene coordinates, as the chat sends it with a message (null while nothing is shown). */
  readonly camera: SceneCamera | null;
  /** The handle mountViewer returned (open a target in place, as the chat panel does). */
  readonly handle: ViewerHandle;
  /** The view controls' state and the 3D side's geometry (viewControls.ts). */
  readonly view: ViewHook;
  /** The user's clip box in the scene (null: none), the floor plan as drawn, the search box (app/wayfinding.ts). */
  readonly clipBox: ClipBox | null;
  readonly minimap: MinimapHook;
  readonly search: SearchHook;
  /** Page (client) coordinates where a click lands on this item (a candidate: on one of its points), or null. */
  screenPosition(code: string): { x: number; y: number } | null;
  /** Page (client) coordinates of the middle of a candidate's drawn points (a sample's mean), or null. */
  pointsCentre(code: string): { x: number; y: number } | null;
  /** For the benchmark: which picker canvas clicks use, and one pick at client coordinates without clicking. */
  readonly bench: {
    picker: PickMethod;
    pickAt(x: number, y: number, method: PickMethod): { code: string | null; ms: number };
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

/** The hook over `store`; `deps` are the parts of the app that what is computed on demand reaches into. */
export function createHook(store: ViewerStore, deps: { stage(): Stage | null; handle: ViewerHandle; view: ViewHook;
                                                       way(): { minimapHook: MinimapHook; search: { shown: SearchHook } } }): SceneViewerHook {
  const shown = () => {
    const stage = deps.stage();
    return stage && store.model ? { stage, model: store.model } : null;
  };
  return {
    get mode() { return store.mode; },
    get selectionMode() { return store.selectionMode; },
    get state() { return store.state; },
    get sessionId() { return store.sessionId; },
    get candidates() { return [...store.candidates]; },
    get selected() { return [...store.selected]; },
    get hovered() { return store.hovered; },
    get drillRoom() { return store.drillRoom; },
    get floor() { return store.floor; },
    get framed() { return [...store.framed]; },
    get far() { return [...store.far]; },
    get labelsDrawn() { return store.labelsDrawn; },
    get itemCount() { return store.itemCount; },
    get pointsLoaded() { return store.pointsLoaded; },
    get pointsTotal() { return store.pointsTotal; },
    get lod() { return store.lod; },
    get timings() { return { ...store.timings }; },
    get measuring() { return store.measuring; },
    get lastMeasurement() {
      const m = store.lastMeasurement;
      return m && { ...m, points: m.points.map((p) => [...p] as [number, number, number]) };
    },
    get infoCode() { return store.infoCode; },
    get lastPick() { return store.lastPick && { ...store.lastPick }; },
    set lastPick(pick) { store.lastPick = pick; },
    get pointsDrawn() { return deps.stage()?.pointsDrawn ?? 0; },
    get pointsDrawnMax() { return deps.stage()?.pointsDrawnMax ?? 0; },
    get tilesPending() { return deps.stage()?.tiles?.pending ?? false; },
    get camera() { return deps.handle.camera(); },
    handle: deps.handle,
    view: deps.view,
    get clipBox() { return store.clipBox && { min: [...store.clipBox.min] as Vec3, max: [...store.clipBox.max] as Vec3 }; },
    get minimap() { return deps.way().minimapHook; },
    get search() { return deps.way().search.shown; },
    screenPosition: (code) => {
      const at = shown();
      return at ? screenPositionOf(at.stage, at.model, store.targets, code) : null;
    },
    screenPoint: (p) => {
      const stage = deps.stage();
      const at = stage?.project(new THREE.Vector3(...p));
      const rect = stage?.canvas.getBoundingClientRect();
      return at && rect ? { x: rect.left + at.x, y: rect.top + at.y } : null;
    },
    pointsCentre: (code) => {
      const stage = deps.stage();
      const id = store.targetIds.get(code);
      const at = stage && id ? pointsCentre(stage, id) : null;
      const rect = stage?.canvas.getBoundingClientRect();
      return at && rect ? { x: rect.left + at.x, y: rect.top + at.y } : null;
    },
    bench: {
      get picker() { return store.picker; },
      set picker(method) { store.picker = method; },
      pickAt: (x, y, method) => {
        const rect = deps.stage()?.canvas.getBoundingClientRect();
        const began = performance.now();
        const at = shown();
        const code = rect && at ? codeAt(at.stage, store.targets, x - rect.left, y - rect.top, method) : null;
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
        if (stage) orbit(stage, degrees);
        stage?.drawNow();
        return performance.now() - began;
      },
    },
  };
}
