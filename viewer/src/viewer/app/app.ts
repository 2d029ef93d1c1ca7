// The viewer app: opens a target (URL state alone is enough), loads it progressively into the stage,
// and runs view-only or selection mode — picks, drill-down, floors, the session's countdown, Confirm
// and Cancel — keeping the DOM, `document.body.dataset.viewerState` and `window.sceneViewer` current.
// Going to another view is a history entry (history.ts), so Back and Forward move between views.
// It owns the state (store.ts) and wires its parts: loading (loading.ts), where in the view the user is and
// what is framed (places.ts), how items look (styling.ts), the read-only test hook (hooks.ts), the measuring tools
// (measure/tools.ts: while one is in use, clicks measure) and an object's info card (panel/infoCard.ts: a click on
// an object in view mode).

import { servedElsewhere } from "../../apiBase";
import { targetUrl, WHOLE_SCENE, type AnswerShown, type SceneCamera, type ViewTarget, type ViewerHandle } from "../../contracts";
import { getLang, onLangChange } from "../../i18n";
import { fillChinese, lacksChinese, namesOf } from "../data/names";
import { WebGLUnavailable } from "../errors";
import type { Place } from "../navigation/history";
import { Navigation } from "../navigation/navigation";
import { MeasureTools } from "../measure/tools";
import { InfoCard } from "../panel/infoCard";
import { dock } from "../panel/dock";
import { Labels } from "../panel/labels";
import { Panel } from "../panel/panel";
import { ViewControls } from "../panel/viewControls";
import { listenToPointer } from "../picking/clicks";
import { viewerKey } from "../session/keys";
import { itemsOf } from "../data/model";
import { sceneCamera } from "../stage/cameraMoves";
import { Stage } from "../stage/stage";
import { t } from "../strings";
import { Following } from "./follow";
import { createHook } from "./hooks";
import { Loading } from "./loading";
import type { ViewerParts } from "./parts";
import { Places } from "./places";
import { ViewerStore, type ViewerState } from "./store";
import { Styling } from "./styling";
import { Wayfinding } from "./wayfinding";

/** What the page around the viewer offers it: `ask` puts words into the chat's input (a page with a chat). */
export interface ViewerOptions {
  ask?(text: string): void;
}

export class ViewerApp implements ViewerHandle {
  /** What mountViewer hands out: the chat panel's way to switch views in place (and the test hook's). */
  readonly handle: ViewerHandle = {
    open: (next) => this.open(next),
    current: () => this.current(),
    sessionEnded: (sessionId, status, codes) => this.sessionEnded(sessionId, status, codes),
    camera: () => this.camera(),
    follow: (answer) => this.follow(answer),
    frame: (code) => this.frame(code),
  };
  private readonly store: ViewerStore;
  private readonly panel: Panel;
  private readonly labels: Labels;
  private readonly view: ViewControls;
  private readonly measure: MeasureTools;
  private readonly info: InfoCard;
  private stage: Stage | null = null;
  private readonly styling: Styling;
  private readonly places: Places;
  private readonly loading: Loading;
  private readonly navigation: Navigation;
  private readonly following: Following;
  private readonly wayfinding: Wayfinding;

  constructor(readonly root: HTMLElement, target: ViewTarget, options: ViewerOptions = {}) {
    const store = (this.store = new ViewerStore(target));
    const session = () => store.session;
    this.panel = new Panel(root, {
      pickRow: (code) => {
        session()?.toggle(code);
        const group = this.places.groupToShow(code); // framed with its group, unless it is in sight
        if (group?.length) this.showCodes(group);
      },
      frameCodes: (codes) => this.showCodes(codes),
      confirm: () => void session()?.confirm(),
      cancel: () => void session()?.cancel(),
      undo: () => session()?.undo(),
      drill: (room) => this.go({ floor: store.floor, room }),
      back: () => this.go({ floor: store.floor, room: null }),
      frameItem: (code) => this.places.frameCodes([code]),
      hoverRow: (code) => this.setHovered(code),
      floor: (code) => this.go({ floor: code, room: null }),
      reset: () => this.places.frameDefault(),
      wholeScene: () => void this.navigation.visit({ target: WHOLE_SCENE, floor: null, room: null }, "push"),
      wholeSceneHref: () => targetUrl(WHOLE_SCENE),
      // a page served from elsewhere (the MCP App page) would lose the tool result it was given: the view again
      reload: () => (servedElsewhere() ? void this.loading.load(store.target, false) : window.location.reload()),
      moreTime: () => void session()?.extend(),
      escapeYes: () => void session()?.cancel(),
      escapeNo: () => session()?.dismissEscape(),
    });
    this.labels = new Labels(this.panel.stage);
    this.labels.onPick = (code) => session()?.toggle(code); // a candidate's label picks it
    this.labels.onHover = (code) => this.setHovered(code);
    this.view = new ViewControls(this.panel.bar.el, root, {
      changed: (reframe) => {
        this.styling.restyle();
        if (reframe) this.places.frameDefault();
      },
      frameAll: () => this.places.frameAll(),
      cut: () => this.styling.relabel(),
    });
    this.measure = new MeasureTools(root, {
      stage: () => this.stage, model: () => store.model, tiled: () => store.tiled,
      measured: (m) => (store.lastMeasurement = m),
      toolChanged: (tool) => {
        store.measuring = tool;
        if (tool) this.info.close(); // clicks measure now
        this.setHovered(null);
      },
    });
    this.info = new InfoCard(options.ask ? (text) => options.ask!(text) : null, (code) => (store.infoCode = code));
    window.sceneViewer = createHook(store, { stage: () => this.stage, handle: this.handle, view: this.view.testHook(),
                                             way: () => this.wayfinding });
    const parts: ViewerParts = { panel: this.panel, labels: this.labels, view: this.view, stage: () => this.stage };
    this.styling = new Styling(store, parts);
    this.places = new Places(store, parts, this.styling);
    this.loading = new Loading(store, parts, this.styling, this.places, {
      makeStage: () => this.makeStage(),
      setState: (state) => this.setState(state),
      picksChanged: () => this.picksChanged(),
      applyPlace: () => {
        this.applyPlace(true);
        this.nameInChinese();
      },
    });
    this.navigation = new Navigation({
      target: () => store.target,
      loaded: () => store.model !== null && store.settled,
      load: (next, initial) => this.loading.load(next, initial),
      applyPlace: () => this.applyPlace(),
      returning: () => this.wayfinding.returning(),
    });
    this.following = new Following(store, this.places, {
      visit: (place, codes) => this.navigation.visit(place, "push", false, codes.length ? codes : null),
      dropPrompt: () => this.panel.setPrompt(null, null),
    });
    this.wayfinding = new Wayfinding(store, parts, {
      show: (code) => this.show(code), frame: (codes) => this.places.frameCodes(codes), reset: () => this.places.frameDefault(),
      camera: () => this.camera(), restyle: () => this.styling.restyle(),
    });
    document.addEventListener("keydown", (e) => viewerKey(e, {
      root: this.root, session, inRoom: () => store.drillRoom !== null,
      leaveRoom: () => this.go({ floor: store.floor, room: null }),
    }));
    onLangChange(() => {
      this.renderTexts();
      this.nameInChinese();
    });
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

  current(): ViewTarget {
    return this.store.target;
  }

  sessionEnded(sessionId: string, status: "confirmed" | "cancelled" | "expired", codes: string[] = []): void {
    if (this.store.session?.sessionId === sessionId) this.store.session.ended(status, codes);
  }

  /** The camera in scene coordinates once a view is shown (framed), else null. */
  camera(): SceneCamera | null {
    return this.store.model && this.stage ? sceneCamera(this.stage) : null;
  }

  /** A run ended: show what its answer is about (follow.ts). */
  follow(answer: AnswerShown): boolean {
    return this.following.follow(answer);
  }

  /** A code clicked in an answer: frame it in its room (follow.ts). */
  frame(code: string): Promise<void> {
    return this.following.frame(code);
  }

  // --- what the parts share -----------------------------------------------------------------------

  /** The user goes to another floor or room of the view shown. */
  private go(at: { floor: string | null; room: string | null }): void {
    if (this.store.model && (at.floor !== this.store.floor || at.room !== this.store.drillRoom)) this.navigation.go(at.floor, at.room);
  }

  /** The place wanted (a floor, a room, codes to frame) is shown (`firstLoad`: as a view finishes loading); the
   *  way-finding controls follow. */
  private applyPlace(firstLoad = false): void {
    this.places.apply(this.navigation.wanted, firstLoad);
    this.wayfinding.placeShown();
  }

  /** A search result or a room on the plan: a room framed on its floor, an object inside its room (a pick stays). */
  private show(code: string): void {
    const item = this.store.model ? itemsOf(this.store.model, code)[0] : undefined;
    if (!item) return;
    if (this.store.mode === "selection") return this.showCodes([code]);
    const room = item.kind === "object" ? item.room : null;
    void this.navigation.visit({ target: this.store.target, floor: item.floor, room }, "push", false, [code]);
  }

  /** Frame `codes`, on their floor when another floor is shown alone (a history entry, as the floor buttons make). */
  private showCodes(codes: string[]): void {
    const floor = this.places.floorFor(codes);
    if (floor === undefined) this.places.frameCodes(codes);
    else void this.navigation.visit({ target: this.store.target, floor, room: null }, "push", false, codes);
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
    const store = this.store;
    this.stage = stage;
    this.view.attach(stage);
    this.panel.stage.append(this.labels.element); // above the canvas
    this.measure.mount(this.panel.stage, stage); // after view.attach: panels that change size move no camera
    this.info.mount(this.panel.stage);
    const [measurePanel, measureButtons] = this.measure.docked;
    dock(this.panel.stage, [this.info.el, measurePanel], [measureButtons, this.wayfinding.minimap.element]);
    stage.canvas.setAttribute("aria-label", t("canvasLabel"));
    stage.onRender = () => {
      store.labelsDrawn = this.labels.place(stage, this.view.coveredRects());
      this.measure.place();
      this.wayfinding.rendered();
      if (store.tiled && store.settled) this.loading.showPoints();
    };
    listenToPointer({
      stage, picker: () => store.picker, picked: (pick) => (store.lastPick = pick), targets: () => store.targets,
      model: () => store.model, session: () => store.session, drillRoom: () => store.drillRoom,
      hover: (code) => this.setHovered(code), frame: (codes) => this.places.frameCodes(codes),
      enterRoom: (room) => this.go({ floor: store.floor, room }),
      tool: () => (this.measure.active ? this.measure : null), inspect: (code) => this.inspect(code),
    });
    return stage;
  }

  private setState(state: ViewerState): void {
    this.store.state = state;
    document.body.dataset.viewerState = state;
    this.root.dataset.state = state;
    if (state === "loading") {
      this.measure.reset();
      this.info.close();
    }
    if (state !== "ready" && state !== "loading" && this.store.hovered) this.setHovered(null);
  }

  private picksChanged(): void {
    this.store.selected = this.store.session?.selected ?? [];
    this.styling.restyle();
  }

  /** A click in view mode: an object's info card, or none (a room, nothing). */
  private inspect(code: string | null): void {
    const { model } = this.store;
    const item = code && model ? model.items.find((i) => i.code === code) : undefined;
    if (model && item?.kind === "object") this.info.open(model.sceneId, item.code);
    else this.info.close();
  }

  private setHovered(code: string | null): void {
    if (code === this.store.hovered) return;
    this.store.hovered = code;
    this.styling.restyle();
  }

  /** In Chinese, the rooms and objects named so (from the scene's names when the model lacks them), list and labels. */
  private nameInChinese(): void {
    const model = this.store.model;
    if (getLang() !== "zh" || !model || !lacksChinese(model)) return;
    namesOf(model.sceneUrl).then((names) => {
      fillChinese(model, names);
      if (model === this.store.model) this.renderTexts();
    }, () => undefined); // the English names stay
  }

  private renderTexts(): void {
    this.panel.renderTexts();
    this.view.renderTexts();
    this.measure.renderTexts();
    this.info.renderTexts();
    this.styling.restyle(); // the labels' words
    this.stage?.canvas.setAttribute("aria-label", t("canvasLabel"));
    if (this.store.drillRoom) this.places.drill(this.store.drillRoom, false);
  }
}
