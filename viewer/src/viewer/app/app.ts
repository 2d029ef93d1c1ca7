// The viewer app: opens a target (URL state alone is enough), loads it progressively into the stage,
// and runs view-only or selection mode — picks, drill-down, floors, the session's countdown, Confirm
// and Cancel — keeping the DOM, `document.body.dataset.viewerState` and `window.sceneViewer` current.
// Going to another view is a history entry (history.ts), so Back and Forward move between views.

import { targetUrl, WHOLE_SCENE, type SceneCamera, type ViewTarget, type ViewerHandle } from "../../contracts";
import { onLangChange } from "../../i18n";
import { getSession, type SessionState } from "../data/api";
import { SessionFlow } from "../session/sessionFlow";
import { describeFailure, WebGLUnavailable } from "../errors";
import type { Place } from "../navigation/history";
import { viewerKey } from "../session/keys";
import { checkTarget } from "../data/links";
import { Navigation } from "../navigation/navigation";
import { RetryClock } from "./retry";
import { createHook, resetHook, screenPositionOf, type SceneViewerHook, type ViewerState } from "./hooks";
import { Labels } from "../panel/labels";
import { loadModel } from "../data/loader";
import { isVisible, labelsOf, onTop, outlinesOf, pickTargets, styleOf, targetOf, type Look } from "../looks/looks";
import { itemsOf, padded, unionBounds, type Item, type ViewModel } from "../data/model";
import { Panel } from "../panel/panel";
import { codeAt, listenToPointer } from "../picking/clicks";
import { Stage } from "../stage/stage";
import { loadContent, pointsStatus } from "./contentLoad";
import { prefetchTilesIndex, type TiledView } from "../tiles/tiledView";
import { t } from "../strings";
import { listHeading, listRows, roomRows, viewTitle } from "../panel/titles";
import { ViewControls } from "../panel/viewControls";


export class ViewerApp implements ViewerHandle {
  private readonly panel: Panel;
  private stage: Stage | null = null;
  private readonly labels: Labels;
  private target: ViewTarget;
  private model: ViewModel | null = null;
  private generation = 0;
  private abort = new AbortController();
  private session: SessionFlow | null = null;
  private hovered: string | null = null;
  private drillRoom: string | null = null;
  private floor: string | null = null;
  private targets: string[] = [];
  private targetIds = new Map<string, number>();
  private tiled: TiledView | null = null;
  private readonly hook: SceneViewerHook;
  private readonly view: ViewControls;
  private readonly navigation: Navigation;
  private readonly retry = new RetryClock();

  constructor(readonly root: HTMLElement, target: ViewTarget) {
    this.target = target;
    this.panel = new Panel(root, {
      toggle: (code) => this.session?.toggle(code),
      confirm: () => void this.session?.confirm(),
      cancel: () => void this.session?.cancel(),
      undo: () => this.session?.undo(),
      drill: (room) => this.go({ floor: this.floor, room }),
      back: () => this.go({ floor: this.floor, room: null }),
      frameItem: (code) => this.frameCodes([code]),
      hoverRow: (code) => this.setHovered(code),
      floor: (code) => this.go({ floor: code, room: null }),
      reset: () => this.frameDefault(),
      wholeScene: () => void this.navigation.visit({ target: WHOLE_SCENE, floor: null, room: null }, "push"),
      wholeSceneHref: () => targetUrl(WHOLE_SCENE),
      moreTime: () => void this.session?.extend(),
      escapeYes: () => void this.session?.cancel(),
      escapeNo: () => this.session?.dismissEscape(),
    });
    this.labels = new Labels(this.panel.stage);
    this.hook = this.makeHook();
    window.sceneViewer = this.hook;
    this.view = new ViewControls(this.panel.bar.el, root, {
      changed: (reframe) => {
        this.restyle();
        if (reframe) this.frameDefault();
      },
      frameAll: () => this.frameDefault(),
    });
    this.navigation = new Navigation({
      target: () => this.target,
      loaded: () => this.model !== null && this.hook.state !== "error" && this.hook.state !== "loading",
      load: (next, initial) => this.load(next, initial),
      applyPlace: () => this.applyPlace(),
    });
    document.addEventListener("keydown", (e) => viewerKey(e, {
      root: this.root, session: () => this.session, inRoom: () => this.drillRoom !== null,
      leaveRoom: () => this.go({ floor: this.floor, room: null }),
    }));
    onLangChange(() => this.renderTexts());
  }

  // --- ViewerHandle -------------------------------------------------------------------------------

  /** A view the chat opens: a new history entry (Back returns to what was shown before). */
  open(target: ViewTarget): Promise<void> {
    return this.navigation.visit({ target, floor: null, room: null }, "push");
  }

  /** The page's first view, from its URL alone. */
  start(place: Place): Promise<void> {
    return this.navigation.visit(place, "replace", true);
  }

  /** The user goes to another floor or room of the view shown. */
  private go(at: { floor: string | null; room: string | null }): void {
    if (this.model && (at.floor !== this.floor || at.room !== this.drillRoom)) this.navigation.go(at.floor, at.room);
  }

  /** The wanted floor and room, where the model has them. */
  private applyPlace(): void {
    const model = this.model;
    if (!model) return;
    const { wanted } = this.navigation;
    const floor = model.floors.some((f) => f.code === wanted.floor) ? wanted.floor : null;
    const room = model.items.some((i) => i.kind === "room" && i.code === wanted.room) ? wanted.room : null;
    if (floor !== this.floor) this.setFloor(floor);
    if (room !== this.drillRoom) this.drill(room);
    this.showTitle();
  }

  current(): ViewTarget {
    return this.target;
  }

  sessionEnded(sessionId: string, status: "confirmed" | "cancelled" | "expired", codes: string[] = []): void {
    if (this.session?.sessionId === sessionId) this.session.ended(status, codes);
  }

  /** The camera in scene coordinates once a view is shown (framed), else null. */
  camera(): SceneCamera | null {
    return this.model && this.stage ? this.stage.sceneCamera() : null;
  }

  // --- loading ------------------------------------------------------------------------------------

  /** Show `target`: everything from the previous view is dropped; `initial` times from navigation start. */
  async load(target: ViewTarget, initial: boolean): Promise<void> {
    const gen = ++this.generation;
    this.abort.abort();
    this.abort = new AbortController();
    this.retry.cancel();
    const signal = this.abort.signal;
    this.session?.stop();
    this.session = null;
    this.target = target;
    this.model = null;
    this.hovered = this.drillRoom = this.floor = null;
    this.targets = [];
    this.targetIds.clear();
    this.tiled = null;
    const t0 = initial ? 0 : performance.now();
    resetHook(this.hook, target);
    this.setState("loading");
    this.stage?.clear();
    this.labels.set([]);
    this.panel.clear(target.selectionMode, target.prompt ? () => target.prompt! : null,
                     () => t(target.manifest ? "loadingView" : "loadingScene"));
    const elapsed = () => Math.round((performance.now() - t0) * 10) / 10;
    try {
      target = checkTarget(target); // a broken link is said so before anything is asked of the server
      this.target = target;
      this.hook.mode = target.selectionMode ? "selection" : "view";
      // on its way while WebGL starts (slow on a software renderer); so is a big scene's tiles' index
      const modelRead = loadModel(target, signal, (points) => prefetchTilesIndex(points, signal));
      modelRead.catch(() => undefined);
      const stage = this.makeStage();
      const model = await modelRead;
      if (gen !== this.generation) return;
      this.retry.reset();
      this.hook.timings.manifestMs = elapsed();
      const sessionRead = model.selection ? getSession(model.selection.sessionId, signal) : null;
      sessionRead?.catch(() => undefined); // read below; a failure must not count as unhandled meanwhile
      this.show(model);
      this.applyPlace();
      const tiled = await loadContent(stage, model, this.hook.pointsTotal, signal, {
        current: () => gen === this.generation,
        readingTiles: () => this.panel.setStatus(() => t("readingTiles"), 0),
        tiled: (view) => {
          this.tiled = view;
          this.hook.lod = "tiles";
          this.restyle();
        },
        cloud: (item) => this.styleCloud(item),
        progress: (points) => {
          this.hook.pointsLoaded = points;
          this.showPoints();
        },
        firstFrame: () => (this.hook.timings.firstFrameMs = elapsed()),
      });
      if (gen !== this.generation) return;
      if (tiled) tiled.layer.onChange = () => this.tilesChanged(tiled);
      const session = sessionRead ? await sessionRead : null;
      if (gen !== this.generation) return;
      this.restyle();
      stage.drawNow();
      this.hook.timings.readyMs = elapsed();
      if (session) this.startSession(model, session);
      else this.setState("ready");
      this.showPoints();
    } catch (exc) {
      if (gen !== this.generation) return;
      this.abort.abort();
      this.fail(exc, () => void this.load(target, initial));
    }
  }

  /** The 3D stage, made on first use; WebGLUnavailable when the browser cannot draw. */
  private makeStage(): Stage {
    if (this.stage) return this.stage;
    let stage: Stage;
    try {
      stage = new Stage(this.panel.stage);
    } catch (exc) {
      throw new WebGLUnavailable(String(exc));
    }
    this.stage = stage;
    this.view.attach(stage);
    this.panel.stage.append(this.labels.element); // above the canvas
    stage.canvas.setAttribute("aria-label", t("canvasLabel"));
    stage.onRender = () => {
      this.labels.place((p) => stage.project(p));
      if (this.tiled && this.hook.state !== "loading" && this.hook.state !== "error") this.showPoints();
    };
    listenToPointer({
      stage, hook: this.hook, targets: () => this.targets, model: () => this.model, session: () => this.session,
      drillRoom: () => this.drillRoom, hover: (code) => this.setHovered(code), frame: (codes) => this.frameCodes(codes),
      enterRoom: (room) => this.go({ floor: this.floor, room }),
    });
    return stage;
  }

  private show(model: ViewModel): void {
    this.model = model;
    this.stage!.setUpAxis(model.upAxis);
    this.view.showModel(model); // floors exploded or not: before anything is framed or drawn
    const candidates = model.selection?.candidates ?? [];
    this.targets = pickTargets({ model, selection: !!model.selection, candidates: new Set(candidates) });
    this.targetIds = new Map(this.targets.map((code, k) => [code, k + 1]));
    Object.assign(this.hook, { candidates: [...candidates], selectionMode: model.selection?.mode ?? null,
                               sessionId: model.selection?.sessionId ?? null, itemCount: model.items.length,
                               pointsTotal: model.items.reduce((n, i) => n + i.points, 0) });
    this.panel.showView(() => viewTitle(model, this.floor, this.drillRoom), model.floors.map((f) => f.code), listRows(model),
                        !!model.selection, () => listHeading(model));
    if (model.selection) {
      this.session = new SessionFlow(model.selection, this.panel, {
        state: (s) => this.setState(s),
        changed: () => this.picksChanged(),
      });
      this.panel.setPrompt(model.selection.prompt ? () => model.selection!.prompt! : null, null);
    }
    this.frameDefault();
    this.restyle();
  }

  private startSession(model: ViewModel, state: SessionState): void {
    if (!model.selection || !this.session) return;
    this.session.start(state);
    if (this.hook.state === "ready") this.panel.focusFirstRow();
  }

  /** The status line's point count (contentLoad.ts says what it is in each state). */
  private showPoints(): void {
    this.panel.setStatus(...pointsStatus(this.hook, this.stage?.pointsDrawn ?? 0, this.tiled));
  }

  /** A tile arrived after the view was loaded (the camera moved on): draw it. */
  private tilesChanged(tiled: TiledView): void {
    if (tiled !== this.tiled || !this.stage) return;
    this.hook.pointsLoaded = tiled.pointsFetched(this.stage);
    this.stage.requestRender();
  }


  /** Loading failed: say why; when the server did not answer at all, `again` loads again once it may. */
  private fail(exc: unknown, again: () => void): void {
    console.warn("scene-agent viewer:", exc);
    const failure = describeFailure(exc, this.target);
    this.panel.showCard(failure.away ? "offline" : "error", failure.text, failure.reload);
    this.panel.setStatus(null, null);
    this.setState("error");
    this.showTitle();
    if (failure.away) this.retry.after(again);
  }

  private setState(state: ViewerState): void {
    this.hook.state = state;
    document.body.dataset.viewerState = state;
    this.root.dataset.state = state;
    if (state !== "ready" && state !== "loading" && this.hovered) this.setHovered(null);
  }

  // --- looks --------------------------------------------------------------------------------------

  private look(): Look | null {
    if (!this.model) return null;
    return { model: this.model, selection: !!this.model.selection, candidates: new Set(this.hook.candidates),
             selected: new Set(this.hook.selected), hovered: this.hovered, drillRoom: this.drillRoom, floor: this.floor,
             options: this.view.options };
  }

  /** The pick id of an item's points now (0: not pickable). */
  private pickIdOf(look: Look, item: Item): number {
    const target = targetOf(look, item);
    const pickable = !look.selection || this.hook.state === "ready" || this.hook.state === "loading";
    return target !== null && pickable ? this.targetIds.get(target) ?? 0 : 0;
  }

  private styleCloud(item: Item, look = this.look()): void {
    const cloud = this.stage?.cloud(item.code);
    if (!cloud || !look) return;
    this.stage!.setStyle(cloud, styleOf(look, item), isVisible(look, item), this.pickIdOf(look, item), onTop(look, item));
  }

  private restyle(): void {
    const look = this.look();
    if (!look || !this.stage) return;
    for (const cloud of this.stage.allClouds()) this.styleCloud(cloud.item, look);
    this.tiled?.restyle((item) => ({ style: styleOf(look, item), visible: isVisible(look, item), pickId: this.pickIdOf(look, item) }));
    this.labels.set(labelsOf(look));
    this.stage.setOutlines(outlinesOf(look));
    this.view.update(look.model.items.filter((i) => isVisible(look, i)));
    this.panel.setSelection(look.selected, this.hovered, this.model?.selection?.multiple ?? false);
    this.stage.canvas.style.cursor = this.hovered && look.selection ? "pointer" : "";
    this.stage.requestRender();
  }

  private picksChanged(): void {
    this.hook.selected = this.session?.selected ?? [];
    this.restyle();
  }

  private setHovered(code: string | null): void {
    if (code === this.hovered) return;
    this.hovered = code;
    this.hook.hovered = code;
    this.restyle();
  }

  private renderTexts(): void {
    this.panel.renderTexts();
    this.view.renderTexts();
    this.stage?.canvas.setAttribute("aria-label", t("canvasLabel"));
    if (this.drillRoom) this.drill(this.drillRoom, false);
  }

  // --- camera, drill-down, floors -----------------------------------------------------------------

  private frameCodes(codes: string[]): void {
    if (!this.model || !this.stage) return;
    const bounds = unionBounds(codes.flatMap((c) => itemsOf(this.model!, c)).map((i) => i.bounds));
    if (bounds) this.stage.frame(padded(bounds), this.view.visibleRects() ?? this.panel.insetLeft());
  }

  /** Frame what matters now: the room looked into, else the candidates or focus, else what is visible. */
  private frameDefault(): void {
    const model = this.model;
    if (!model) return;
    if (this.drillRoom) return this.frameCodes([this.drillRoom]);
    const look = this.look()!;
    const visible = model.items.filter((i) => isVisible(look, i));
    const asked = model.selection?.candidates ?? model.focus;
    if (asked.length && this.floor === null) return this.frameCodes(asked);
    this.frameCodes(visible.map((i) => i.code));
  }

  /** Look inside a room (its structure and objects alone, objects labelled); null = back. */
  private drill(room: string | null, frame = true): void {
    if (!this.model) return;
    this.drillRoom = room;
    this.hook.drillRoom = room;
    this.panel.setDrill(room ? roomRows(this.model, room) : null);
    if (frame) this.frameDefault();
    this.restyle();
    this.showTitle();
  }

  private setFloor(code: string | null): void {
    this.floor = code;
    this.panel.setFloor(code);
    if (this.drillRoom) this.drill(null, false);
    this.frameDefault();
    this.restyle();
    this.showTitle();
  }

  /** The title says what is shown; the Whole scene button says whether that is it. */
  private showTitle(): void {
    const model = this.model;
    this.panel.bar.setTitle(() => (model ? viewTitle(model, this.floor, this.drillRoom) : ""));
    const whole = !this.target.manifest && this.floor === null && this.drillRoom === null && this.hook.state !== "error";
    this.panel.bar.setAtWholeScene(whole);
  }

  // --- the test and bench hook --------------------------------------------------------------------

  private makeHook(): SceneViewerHook {
    return createHook({
      stage: () => this.stage,
      camera: () => this.camera(),
      codeAt: (x, y, method) => (this.stage && this.model ? codeAt(this.stage, this.targets, x, y, method) : null),
      screenPosition: (code) => (this.stage && this.model ? screenPositionOf(this.stage, this.model, this.targets, code) : null),
    });
  }
}
