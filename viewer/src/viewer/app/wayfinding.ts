// Finding one's way in a large building, wired to the app: the search box and the link and screenshot buttons in
// the title bar, the floor plan over the canvas (minimap/), the clip box in the View panel, the camera in the page's
// address (navigation/cameraLink.ts) and the keys that move the camera (navigation/keys.ts). What they show goes
// through the app's host (a room or an object shown on its floor, framed); their state is the store's (clipBox).

import "../panel/wayfinding.css";
import type { SceneCamera } from "../../contracts";
import { onLangChange } from "../../i18n";
import { namesOf, type ItemNames } from "../data/names";
import { itemsOf, unionBounds, type Item, type ViewModel } from "../data/model";
import { Minimap, type MinimapHook } from "../minimap/minimap";
import { CameraLink } from "../navigation/cameraLink";
import { moveKey } from "../navigation/keys";
import { searchEntries, type SearchEntry } from "../navigation/search";
import { ClipControls } from "../panel/clipControls";
import { SearchBox } from "../panel/searchBox";
import { ShareButtons } from "../panel/shareButtons";
import { clipAround, clipsNothing, type ClipBox } from "../stage/clipBox";
import type { Stage } from "../stage/stage";
import type { ViewerParts } from "./parts";
import type { ViewerStore } from "./store";

export interface WayfindingHost {
  /** Show a room (framed on its floor) or an object (framed inside its room). */
  show(code: string): void;
  /** Frame these codes where the user is (F). */
  frame(codes: string[]): void;
  /** Frame what the view frames by itself (R, Reset view). */
  reset(): void;
  camera(): SceneCamera | null;
  /** The clip box changed: what is drawn, labelled and framed follows (looks.ts). */
  restyle(): void;
}

/** `window.sceneViewer.search`: the query, the codes listed, the one the arrows reached, whether the list is open. */
export type SearchHook = SearchBox["shown"];

export class Wayfinding {
  readonly search: SearchBox;
  readonly minimap: Minimap;
  private readonly link: CameraLink;
  private readonly clip: ClipControls;
  private readonly share: ShareButtons;
  private model: ViewModel | null = null;
  private entries: SearchEntry[] = [];
  private names: ReadonlyMap<string, ItemNames> | null = null;
  private restored = false;

  constructor(private readonly store: ViewerStore, private readonly parts: ViewerParts, private readonly host: WayfindingHost) {
    const { panel, view } = parts;
    this.link = new CameraLink(() => host.camera());
    this.search = new SearchBox({ entries: () => this.entries, needNames: () => this.loadNames(), open: (code) => host.show(code) });
    this.share = new ShareButtons({ href: () => this.link.href(), snapshot: () => this.snapshot() });
    panel.bar.el.append(this.search.element, this.share.element);
    this.minimap = new Minimap(panel.stage, {
      model: () => store.model, floor: () => store.floor, drillRoom: () => store.drillRoom, camera: () => host.camera(),
      lit: () => (store.framed.length <= 20 ? store.framed : []), open: (code) => host.show(code),
    });
    this.clip = new ClipControls({ around: () => this.around(), changed: (box) => this.setClip(box) });
    view.addSection(this.clip.element);
    // the side panel starts below the title bar, however many lines it takes (viewer.css: --sv-top-bottom)
    new ResizeObserver(() => {
      panel.root.style.setProperty("--sv-top-bottom", `${panel.bar.el.offsetTop + panel.bar.el.offsetHeight}px`);
    }).observe(panel.bar.el);
    document.addEventListener("keydown", (e) => {
      const moved = moveKey(e, {
        root: panel.root, stage: () => parts.stage(), focusSearch: () => this.search.focus(), reset: () => host.reset(),
        frameCurrent: () => this.frameCurrent(),
      });
      if (moved && e.key !== "/") this.link.touch();
    });
    // the user moves the camera: a drag or the wheel on the canvas (the address follows from then on)
    for (const kind of ["pointerdown", "wheel"] as const) {
      panel.stage.addEventListener(kind, (e) => {
        if (e.target instanceof HTMLCanvasElement) this.link.touch();
      }, { passive: true });
    }
    onLangChange(() => {
      this.search.renderTexts();
      this.share.renderTexts();
      this.clip.renderTexts();
      this.minimap.renderTexts();
      this.minimap.update();
    });
  }

  /** A place was shown (a new view, another floor or room): a new view starts unclipped, searched afresh. */
  placeShown(): void {
    const model = this.store.model;
    if (model && model !== this.model) {
      if (this.restored) this.link.untouch();
      this.model = model;
      this.names = null;
      this.entries = searchEntries(model, null);
      this.setClip(null);
      this.clip.set(null);
      if (this.search.shown.open) this.loadNames();
      this.restored = true;
    }
    const stage = this.parts.stage();
    if (stage) this.link.restore(stage); // the page's first view, an entry come back to: the camera its address names
    this.minimap.update();
  }

  /** Back or Forward is about to show an entry again: with the camera its address names. */
  returning(): void {
    this.link.fromAddress();
  }

  /** A frame was drawn: the plan and the address follow the camera. */
  rendered(): void {
    this.minimap.update();
    if (this.store.model && this.store.state !== "error") this.link.moved();
  }

  get minimapHook(): MinimapHook {
    return this.minimap.hook;
  }

  private loadNames(): void {
    const model = this.model;
    if (!model || this.names) return;
    namesOf(model.sceneUrl).then((names) => {
      if (model !== this.model) return;
      this.names = names;
      this.entries = searchEntries(model, names);
      if (this.search.shown.open) this.search.refresh();
    }, () => undefined); // the search works without the Chinese names
  }

  private setClip(box: ClipBox | null): void {
    this.store.clipBox = clipsNothing(box) ? null : box;
    this.parts.stage()?.setClipBox(this.store.clipBox);
    this.host.restyle();
  }

  /** The box around the room looked inside, else around the rooms of what was framed, else what is shown. */
  private around(): ClipBox | null {
    const model = this.store.model;
    if (!model) return null;
    const framed = this.store.framed.length <= 20 ? this.store.framed : [];
    const rooms = this.store.drillRoom ? [this.store.drillRoom] : [...new Set(framed.map((code) => itemsOf(model, code)[0]?.room))];
    let items: Item[] = rooms.filter((r): r is string => !!r).flatMap((room) => itemsOf(model, room));
    if (!items.length) items = model.items.filter((i) => this.store.floor === null || i.floor === this.store.floor);
    const bounds = unionBounds(items.map((i) => i.sceneBounds));
    return bounds && clipAround(bounds);
  }

  /** F: the picks, the room looked inside, what was framed last, else what the view frames. */
  private frameCurrent(): void {
    const { selected, drillRoom, framed } = this.store;
    const codes = selected.length ? selected : drillRoom ? [drillRoom] : framed;
    if (codes.length) this.host.frame(codes);
    else this.host.reset();
  }

  private snapshot(): { url: string; name: string } | null {
    const stage: Stage | null = this.parts.stage();
    if (!stage || !this.store.model) return null;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[T:]/g, "-");
    const scene = this.store.model.sceneName.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "") || "scene";
    return { url: stage.snapshot(), name: `${scene}-${stamp}.png` };
  }
}
