// The viewer app: opens a target (URL state alone is enough), loads it progressively into the stage,
// and runs view-only or selection mode — picks, drill-down, floors, the session's countdown, Confirm
// and Cancel — keeping the DOM, `document.body.dataset.viewerState` and `window.sceneViewer` current.

import { targetUrl, type ViewTarget, type ViewerHandle } from "../contracts";
import { onLangChange } from "../i18n";
import { getSession, type SessionState } from "./api";
import { SessionFlow } from "./sessionFlow";
import { loadErrorMessage, WebGLUnavailable } from "./errors";
import { createHook, emptyTimings, screenPositionOf, type SceneViewerHook, type ViewerState } from "./hooks";
import { Labels } from "./labels";
import { loadingOrder, loadModel, loadPoints, NoScene, PointsError, trimCache } from "./loader";
import { isVisible, labelsOf, onTop, outlinesOf, pickTargets, styleOf, targetOf, type Look } from "./looks";
import { itemsOf, itemTitle, unionBounds, type Item, type ViewModel } from "./model";
import { Panel, type Row } from "./panel";
import { PointerInput } from "./pointer";
import { raycastPick } from "./raycastPick";
import { Stage } from "./stage";
import { t } from "./strings";

// While points stream in, frames are drawn a few times a second, not for every item that arrives: on a
// software renderer one frame of a million points takes longer than fetching many items.
const LOADING_FRAME_SPACING_MS = 400;
const number = (n: number) => n.toLocaleString("en-US");

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
  private readonly hook: SceneViewerHook;

  constructor(readonly root: HTMLElement, target: ViewTarget) {
    this.target = target;
    this.panel = new Panel(root, {
      toggle: (code) => this.session?.toggle(code),
      confirm: () => void this.session?.confirm(),
      cancel: () => void this.session?.cancel(),
      undo: () => this.session?.undo(),
      drill: (room) => this.drill(room),
      back: () => this.drill(null),
      frameItem: (code) => this.frameCodes([code]),
      hoverRow: (code) => this.setHovered(code),
      floor: (code) => this.setFloor(code),
      reset: () => this.frameDefault(),
    });
    this.labels = new Labels(this.panel.stage);
    this.hook = this.makeHook();
    window.sceneViewer = this.hook;
    document.addEventListener("keydown", (e) => this.keydown(e));
    onLangChange(() => this.renderTexts());
  }

  // --- ViewerHandle -------------------------------------------------------------------------------

  open(target: ViewTarget): Promise<void> {
    window.history.replaceState(window.history.state, "", targetUrl(target));
    return this.load(target, false);
  }

  current(): ViewTarget {
    return this.target;
  }

  sessionEnded(sessionId: string, status: "confirmed" | "cancelled" | "expired", codes: string[] = []): void {
    if (this.session?.sessionId === sessionId) this.session.ended(status, codes);
  }

  // --- loading ------------------------------------------------------------------------------------

  /** Show `target`: everything from the previous view is dropped; `initial` times from navigation start. */
  async load(target: ViewTarget, initial: boolean): Promise<void> {
    const gen = ++this.generation;
    this.abort.abort();
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.session?.stop();
    this.session = null;
    this.target = target;
    this.model = null;
    this.hovered = this.drillRoom = this.floor = null;
    this.targets = [];
    const t0 = initial ? 0 : performance.now();
    Object.assign(this.hook, {
      mode: target.selectionMode ? "selection" : "view", selectionMode: null, sessionId: target.sessionId,
      candidates: [], selected: [], hovered: null, drillRoom: null, itemCount: 0, pointsLoaded: 0, pointsTotal: 0,
      timings: emptyTimings(), lastPick: null,
    });
    this.setState("loading");
    this.stage?.clear();
    this.labels.set([]);
    this.panel.showView(() => "", [], [], target.selectionMode, () => t("candidates"));
    this.panel.setPrompt(target.prompt ? () => target.prompt! : null, null);
    this.panel.setCountdown(null);
    this.panel.setPicked(null);
    this.panel.setMessage(null);
    this.panel.setActions({ confirm: false, cancel: false, undo: false }, null);
    this.panel.setStatus(() => t(target.manifest ? "loadingView" : "loadingScene"), 0);
    const elapsed = () => Math.round((performance.now() - t0) * 10) / 10;
    try {
      const modelRead = loadModel(target, signal); // on its way while WebGL starts (slow on a software renderer)
      modelRead.catch(() => undefined);
      const stage = this.makeStage();
      const model = await modelRead;
      if (gen !== this.generation) return;
      this.hook.timings.manifestMs = elapsed();
      const sessionRead = model.selection ? getSession(model.selection.sessionId, signal) : null;
      sessionRead?.catch(() => undefined); // read below; a failure must not count as unhandled meanwhile
      this.show(model);
      let firstFrame = true;
      const first = new Set(model.selection?.candidates ?? model.focus);
      await loadPoints(loadingOrder(model.items, first), signal, (item, data) => {
        if (gen !== this.generation) return;
        this.styleCloud(stage.addCloud(item, data).item);
        this.hook.pointsLoaded += data.count;
        this.progress();
        if (firstFrame) {
          firstFrame = false;
          stage.renderNow();
          stage.sync();
          this.hook.timings.firstFrameMs = elapsed();
        } else stage.requestRender(LOADING_FRAME_SPACING_MS);
      });
      if (gen !== this.generation) return;
      trimCache(model.items);
      const session = sessionRead ? await sessionRead : null;
      if (gen !== this.generation) return;
      this.restyle();
      stage.renderNow();
      stage.sync();
      this.hook.timings.readyMs = elapsed();
      this.panel.setStatus(() => t("pointsShown", { points: number(this.hook.pointsLoaded) }), null);
      if (session) this.startSession(model, session);
      else this.setState("ready");
    } catch (exc) {
      if (gen !== this.generation) return;
      this.abort.abort();
      this.fail(exc);
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
    this.panel.stage.append(this.labels.element); // above the canvas
    stage.canvas.setAttribute("aria-label", t("canvasLabel"));
    stage.onRender = () => this.labels.place((p) => stage.project(p));
    new PointerInput(stage.canvas, {
      hover: (x, y) => this.setHovered(this.codeAt(x, y, "gpu")),
      leave: () => this.setHovered(null),
      click: (x, y, e) => this.click(x, y, e),
      dblclick: (x, y) => this.dblclick(x, y),
    });
    return stage;
  }

  private show(model: ViewModel): void {
    this.model = model;
    this.stage!.setUpAxis(model.upAxis);
    const candidates = model.selection?.candidates ?? [];
    this.targets = pickTargets({ model, selection: !!model.selection, candidates: new Set(candidates) });
    Object.assign(this.hook, { candidates: [...candidates], selectionMode: model.selection?.mode ?? null,
                               sessionId: model.selection?.sessionId ?? null, itemCount: model.items.length,
                               pointsTotal: model.items.reduce((n, i) => n + i.points, 0) });
    const byCode = new Map(model.items.map((i) => [i.code, i]));
    const hasObjects = (room: string) => model.items.some((i) => i.kind === "object" && i.room === room);
    const row = (code: string): Row => {
      const item = byCode.get(code);
      const kind = item?.kind ?? (code.split("-").length === 2 ? "room" : "object");
      return { code, title: item ? itemTitle(item) : code, kind, drill: kind === "room" && hasObjects(code) };
    };
    const listed = model.selection ? candidates : model.focus.length ? model.focus
      : model.items.filter((i) => i.kind === "room").map((i) => i.code);
    const what = model.focus.slice(0, 3).map((c) => (byCode.get(c) ? itemTitle(byCode.get(c)!) : c)).join(", ")
      + (model.focus.length > 3 ? " …" : "");
    const title = () => `${model.sceneName} · ${model.focus.length && !model.selection ? t("viewOf", { what }) : t("wholeScene")}`;
    this.panel.showView(model.selection ? () => model.sceneName : title, model.floors.map((f) => f.code), listed.map(row),
                        !!model.selection, () => t(model.selection ? "candidates" : model.focus.length ? "shown" : "rooms"));
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

  private progress(): void {
    const { pointsLoaded: loaded, pointsTotal: total } = this.hook;
    this.panel.setStatus(() => t("loadingPoints", { loaded: number(loaded), total: number(total) }), total ? loaded / total : 0);
  }

  private fail(exc: unknown): void {
    console.warn("scene-agent viewer:", exc);
    const what = exc instanceof PointsError ? itemTitle(exc.item) : this.target.manifest ?? t("wholeScene");
    const reason = exc instanceof PointsError ? exc.reason : exc;
    this.panel.showError(exc instanceof NoScene ? () => t("errNoScene") : () => loadErrorMessage(reason, what));
    this.panel.setStatus(null, null);
    this.setState("error");
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
             selected: new Set(this.hook.selected), hovered: this.hovered, drillRoom: this.drillRoom, floor: this.floor };
  }

  private styleCloud(item: Item, look = this.look()): void {
    const cloud = this.stage?.cloud(item.code);
    if (!cloud || !look) return;
    const target = targetOf(look, item);
    const pickable = !look.selection || this.hook.state === "ready" || this.hook.state === "loading";
    const id = target !== null && pickable ? this.targets.indexOf(target) + 1 : 0;
    this.stage!.setStyle(cloud, styleOf(look, item), isVisible(look, item), id, onTop(look, item));
  }

  private restyle(): void {
    const look = this.look();
    if (!look || !this.stage) return;
    for (const cloud of this.stage.allClouds()) this.styleCloud(cloud.item, look);
    this.labels.set(labelsOf(look));
    this.stage.setOutlines(outlinesOf(look));
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
    this.stage?.canvas.setAttribute("aria-label", t("canvasLabel"));
    if (this.drillRoom) this.drill(this.drillRoom, false);
  }

  // --- camera, drill-down, floors -----------------------------------------------------------------

  private frameCodes(codes: string[]): void {
    if (!this.model || !this.stage) return;
    const bounds = unionBounds(codes.flatMap((c) => itemsOf(this.model!, c)).map((i) => i.bounds));
    if (bounds) this.stage.frame(padded(bounds), this.panel.insetLeft());
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
    const item = room ? this.model.items.find((i) => i.code === room) : undefined;
    const objects = room ? this.model.items.filter((i) => i.kind === "object" && i.room === room) : [];
    const title = item ? itemTitle(item) : room ?? "";
    const rows: Row[] = objects.map((o) => ({ code: o.code, title: itemTitle(o), kind: "object", drill: false }));
    this.panel.setDrill(room ? { title: () => t("inside", { room: title }), objects: rows } : null);
    if (frame) this.frameDefault();
    this.restyle();
  }

  private setFloor(code: string | null): void {
    this.floor = code;
    this.panel.setFloor(code);
    if (this.drillRoom) this.drill(null, false);
    this.frameDefault();
    this.restyle();
  }

  // --- pointer and keys ---------------------------------------------------------------------------

  private codeAt(x: number, y: number, method: "gpu" | "raycast"): string | null {
    if (!this.stage || !this.model) return null;
    const id = method === "gpu" ? this.stage.pick(x, y) : raycastPick(this.stage, x, y);
    return id > 0 ? this.targets[id - 1] ?? null : null;
  }

  private click(x: number, y: number, e: MouseEvent): void {
    if (!this.session || e.detail > 1) return; // the second click of a double-click does not undo the first
    const began = performance.now();
    const method = this.hook.bench.picker;
    const code = this.codeAt(x, y, method);
    const pickMs = performance.now() - began;
    if (code) this.session.toggle(code);
    this.stage!.renderNow();
    this.stage!.sync();
    this.hook.lastPick = { code, method, pickMs, clickToFrameMs: performance.now() - e.timeStamp };
  }

  private dblclick(x: number, y: number): void {
    const code = this.codeAt(x, y, "gpu");
    if (!code || !this.model) return;
    const item = this.model.items.find((i) => i.code === code);
    if (item?.kind === "room" && this.drillRoom !== code) this.drill(code);
    else this.frameCodes([code]);
  }

  private keydown(e: KeyboardEvent): void {
    const el = e.target as HTMLElement | null;
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || !el) return;
    if (el !== document.body && !this.root.contains(el)) return; // keys typed in the chat are the chat's
    if (el.closest("input, textarea, select, [contenteditable]")) return;
    const row = el.closest<HTMLElement>("[data-code]");
    if (e.key === " " && row && this.session) {
      e.preventDefault();
      this.session.toggle(row.dataset.code!);
    } else if (e.key === "Enter" && this.session && !(el instanceof HTMLButtonElement)) {
      e.preventDefault();
      void this.session.confirm();
    } else if (e.key === "Escape") {
      if (this.drillRoom) this.drill(null);
      else if (this.session) void this.session.cancel();
    }
  }

  // --- the test and bench hook --------------------------------------------------------------------

  private makeHook(): SceneViewerHook {
    return createHook({
      stage: () => this.stage,
      codeAt: (x, y, method) => this.codeAt(x, y, method),
      screenPosition: (code) => (this.stage && this.model ? screenPositionOf(this.stage, this.model, this.targets, code) : null),
    });
  }
}

/** A little room around what is framed. */
function padded(b: { min: [number, number, number]; max: [number, number, number] }) {
  const pad = 0.25;
  return { min: b.min.map((v) => v - pad) as [number, number, number], max: b.max.map((v) => v + pad) as [number, number, number] };
}
