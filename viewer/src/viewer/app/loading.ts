// Loading a target into the viewer: everything from the previous view is dropped, the link is checked, the
// model read (while WebGL starts), the view shown as soon as it is — list, title, framing, a pick's session —
// and its points loaded progressively (contentLoad.ts); then the session as the server has it. A failure is
// said in words (errors.ts); when the server did not answer at all, the load is tried again (retry.ts).

import type { ViewTarget } from "../../contracts";
import { getSession, type SessionState } from "../data/api";
import { checkTarget } from "../data/links";
import { loadModel } from "../data/loader";
import type { ViewModel } from "../data/model";
import { describeFailure } from "../errors";
import { pickTargets } from "../looks/looks";
import { candidateGroups } from "../panel/candidateRows";
import { listHeading, listRows, viewTitle } from "../panel/titles";
import { SessionFlow } from "../session/sessionFlow";
import type { Stage } from "../stage/stage";
import { t } from "../strings";
import { prefetchTilesIndex, type TiledView } from "../tiles/tiledView";
import { loadContent, pointsStatus } from "./contentLoad";
import type { ViewerParts } from "./parts";
import type { Places } from "./places";
import { RetryClock } from "./retry";
import type { ViewerState, ViewerStore } from "./store";
import type { Styling } from "./styling";

export interface LoadingHost {
  /** The stage, made on first use (WebGLUnavailable when the browser cannot draw). */
  makeStage(): Stage;
  setState(state: ViewerState): void;
  /** The session's picks changed. */
  picksChanged(): void;
  /** Show the floor and room wanted (navigation.ts), once the model is read. */
  applyPlace(): void;
}

export class Loading {
  private generation = 0;
  private abort = new AbortController();
  private readonly retry = new RetryClock();

  constructor(private readonly store: ViewerStore, private readonly parts: ViewerParts, private readonly styling: Styling,
              private readonly places: Places, private readonly host: LoadingHost) {}

  /** Show `target`: everything from the previous view is dropped; `initial` times from navigation start. */
  async load(target: ViewTarget, initial: boolean): Promise<void> {
    const { store, parts: { panel }, styling } = this;
    const gen = ++this.generation;
    this.abort.abort();
    this.abort = new AbortController();
    this.retry.cancel();
    const signal = this.abort.signal;
    store.session?.stop();
    store.reset(target);
    const t0 = initial ? 0 : performance.now();
    this.host.setState("loading");
    this.parts.stage()?.clear();
    this.parts.labels.set([]);
    panel.clear(target.selectionMode, target.prompt ? () => target.prompt! : null,
                () => t(target.manifest ? "loadingView" : "loadingScene"));
    const elapsed = () => Math.round((performance.now() - t0) * 10) / 10;
    try {
      target = checkTarget(target); // a broken link is said so before anything is asked of the server
      store.target = target;
      store.mode = target.selectionMode ? "selection" : "view";
      // on its way while WebGL starts (slow on a software renderer); so is a big scene's tiles' index
      const modelRead = loadModel(target, signal, (points) => prefetchTilesIndex(points, signal));
      modelRead.catch(() => undefined);
      const stage = this.host.makeStage();
      const model = await modelRead;
      if (gen !== this.generation) return;
      this.retry.reset();
      store.timings.manifestMs = elapsed();
      const sessionRead = model.selection ? getSession(model.selection.sessionId, signal) : null;
      sessionRead?.catch(() => undefined); // read below; a failure must not count as unhandled meanwhile
      this.show(model);
      this.host.applyPlace();
      const tiled = await loadContent(stage, model, store.pointsTotal, signal, {
        current: () => gen === this.generation,
        readingTiles: () => panel.setStatus(() => t("readingTiles"), 0),
        tiled: (view) => {
          store.tiled = view;
          store.lod = "tiles";
          styling.restyle();
        },
        cloud: (item) => styling.styleCloud(item),
        progress: (points) => {
          store.pointsLoaded = points;
          this.showPoints();
        },
        firstFrame: () => (store.timings.firstFrameMs = elapsed()),
      });
      if (gen !== this.generation) return;
      if (tiled) tiled.layer.onChange = () => this.tilesChanged(tiled);
      const session = sessionRead ? await sessionRead : null;
      if (gen !== this.generation) return;
      await document.fonts.ready; // the panels' text in its own font: their final sizes
      if (gen !== this.generation) return;
      this.places.refit();
      styling.restyle();
      stage.drawNow();
      store.timings.readyMs = elapsed();
      if (session) this.startSession(model, session);
      else this.host.setState("ready");
      this.showPoints();
    } catch (exc) {
      if (gen !== this.generation) return;
      this.abort.abort();
      this.fail(exc, () => void this.load(target, initial));
    }
  }

  /** The status line's point count (contentLoad.ts says what it is in each state). */
  showPoints(): void {
    this.parts.panel.setStatus(...pointsStatus(this.store, this.parts.stage()?.pointsDrawn ?? 0, this.store.tiled));
  }

  /** The model is read: the list, the title, a pick's session, and the first framing, before any point. */
  private show(model: ViewModel): void {
    const { store, parts: { panel } } = this;
    store.model = model;
    this.parts.stage()!.setUpAxis(model.upAxis);
    this.parts.view.showModel(model); // floors exploded or not: before anything is framed or drawn
    const candidates = model.selection?.candidates ?? [];
    store.targets = pickTargets({ model, selection: !!model.selection, candidates: new Set(candidates) });
    store.targetIds = new Map(store.targets.map((code, k) => [code, k + 1]));
    store.candidates = [...candidates];
    store.selectionMode = model.selection?.mode ?? null;
    store.sessionId = model.selection?.sessionId ?? null;
    store.itemCount = model.items.length;
    store.pointsTotal = model.items.reduce((n, i) => n + i.points, 0);
    panel.showView(() => viewTitle(model, store.floor, store.drillRoom), model.floors.map((f) => f.code), listRows(model),
                   !!model.selection, () => listHeading(model), candidateGroups(model));
    if (model.selection) {
      store.session = new SessionFlow(model.selection, panel, {
        state: (s) => this.host.setState(s),
        changed: () => this.host.picksChanged(),
      });
      panel.setPrompt(model.selection.prompt ? () => model.selection!.prompt! : null, null);
    }
    this.places.frameDefault();
    this.styling.restyle();
  }

  private startSession(model: ViewModel, state: SessionState): void {
    if (!model.selection || !this.store.session) return;
    this.store.session.start(state);
    if (this.store.state === "ready") this.parts.panel.focusFirstRow();
  }

  /** A tile arrived after the view was loaded (the camera moved on): draw it. */
  private tilesChanged(tiled: TiledView): void {
    const stage = this.parts.stage();
    if (tiled !== this.store.tiled || !stage) return;
    this.store.pointsLoaded = tiled.pointsFetched(stage);
    stage.requestRender();
  }

  /** Loading failed: say why; when the server did not answer at all, `again` loads again once it may. */
  private fail(exc: unknown, again: () => void): void {
    console.warn("scene-agent viewer:", exc);
    const failure = describeFailure(exc, this.store.target);
    const { panel } = this.parts;
    panel.showCard(failure.away ? "offline" : "error", failure.text, failure.reload);
    panel.setStatus(null, null);
    this.host.setState("error");
    this.places.showTitle();
    if (failure.away) this.retry.after(again);
  }
}
