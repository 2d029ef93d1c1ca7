// The viewer's state, owned by the app (app.ts): the target shown and its model, where in it the user is (a floor,
// a room looked inside), what the viewer is doing, the picks and the item hovered, what has loaded and how long it
// took. Only the app and its parts (loading.ts, places.ts) change it, and the benchmark's two switches (hooks.ts).
// `window.sceneViewer` (hooks.ts) is a read-only view of it; nothing reads the hook back.

import type { ViewTarget } from "../../contracts";
import type { SessionMode } from "../data/api";
import type { ViewModel } from "../data/model";
import type { MeasureKind, Measurement } from "../measure/geometry";
import type { ClipBox } from "../stage/clipBox";
import type { PickMethod, PickRecord } from "../picking/clicks";
import type { SessionFlow } from "../session/sessionFlow";
import type { Lod, TiledView } from "../tiles/tiledView";

// "abandoned": the session is still open, but the program that asked for the pick has stopped waiting for it.
export type ViewerState = "loading" | "ready" | "submitting" | "submitted" | "cancelled" | "expired" | "abandoned" | "error";

export interface Timings {
  /** Milliseconds from the start of the load (navigation start for the page's first view, the open() call for
   * later ones) to: the manifest read, the first frame with points drawn, and every point drawn. */
  manifestMs: number | null;
  firstFrameMs: number | null;
  readyMs: number | null;
}

export function emptyTimings(): Timings {
  return { manifestMs: null, firstFrameMs: null, readyMs: null };
}

export class ViewerStore {
  /** The target shown or being loaded (its link checked once its load starts: links.ts). */
  target: ViewTarget;
  /** Its model, once read. */
  model: ViewModel | null = null;
  state: ViewerState = "loading";
  /** "selection" while a session asks the user to pick (whatever its state), "view" otherwise. */
  mode: "view" | "selection" = "view";
  /** The session's mode in selection, else null. */
  selectionMode: SessionMode | null = null;
  sessionId: string | null = null;
  candidates: string[] = [];
  selected: string[] = [];
  hovered: string | null = null;
  /** The floor shown alone, and the room looked inside (null: none). */
  floor: string | null = null;
  drillRoom: string | null = null;
  /** The codes the camera was last framed on (places.ts), whoever asked: the view, a row, an answer, a link. */
  framed: string[] = [];
  /** The user's clip box in the scene (stage/clipBox.ts), null for none: a new view starts without one. */
  clipBox: ClipBox | null = null;
  /** A pick's candidates left out of its first framing (candidateFraming.ts), and the labels the last frame drew. */
  far: string[] = [];
  labelsDrawn = 0;
  /** What the pointer picks: pick id k + 1 stands for `targets[k]` (looks.ts pickTargets). */
  targets: string[] = [];
  targetIds = new Map<string, number>();
  /** A large view's tiles (tiledView.ts), and a pick's selection session (sessionFlow.ts). */
  tiled: TiledView | null = null;
  session: SessionFlow | null = null;
  /** Items in the view, and their points: fetched so far, and in all (hooks.ts says how tiles count). */
  itemCount = 0;
  pointsLoaded = 0;
  pointsTotal = 0;
  lod: Lod = "items";
  timings: Timings = emptyTimings();
  lastPick: PickRecord | null = null;
  /** The measuring tool in use (measure/tools.ts), and the last measurement finished in this view. */
  measuring: MeasureKind | null = null;
  lastMeasurement: Measurement | null = null;
  /** The object whose info card is open (panel/infoCard.ts). */
  infoCode: string | null = null;
  /** Which picker canvas clicks use: the benchmark switches it (scene_bench/viewer_page.py). */
  picker: PickMethod = "gpu";

  constructor(target: ViewTarget) {
    this.target = target;
  }

  /** Loaded and shown, not failed: what is shown may change without a new load. */
  get settled(): boolean {
    return this.state !== "loading" && this.state !== "error";
  }

  /** A new target is being loaded: nothing of the previous one is left (its session stopped beforehand). */
  reset(target: ViewTarget): void {
    this.target = target;
    this.model = this.tiled = this.session = null;
    this.hovered = this.floor = this.drillRoom = null;
    this.framed = [];
    this.clipBox = null;
    this.far = [];
    this.labelsDrawn = 0;
    this.targets = [];
    this.targetIds = new Map();
    this.mode = target.selectionMode ? "selection" : "view";
    this.selectionMode = null;
    this.sessionId = target.sessionId;
    this.candidates = [];
    this.selected = [];
    this.itemCount = this.pointsLoaded = this.pointsTotal = 0;
    this.lod = "items";
    this.timings = emptyTimings();
    this.lastPick = null;
    this.lastMeasurement = null;
    this.infoCode = null;
  }
}
