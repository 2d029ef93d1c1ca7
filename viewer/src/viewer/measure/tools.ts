// The measuring tools: which one is in use, the points clicked so far, the measurements made, and what clicks and
// keys do meanwhile. While a tool is in use, clicks on the canvas measure (they pick nothing and open no card):
//   distance  two clicks: the straight distance between the two scene points
//   height    one click: the point's height above the floor below it — its storey's floor (the elevation the
//             scene manifest gives), else the lowest point of its room
//   area      clicks on the floor's corners; a double-click, Enter, "Close shape" or a click on the first corner
//             closes the polygon: its area and perimeter on the horizontal plane
// Every click lands on the actual scene point under the cursor (snap.ts). Escape cancels the measurement in
// progress (and, with none, leaves the tool); the tool's button again leaves it. A tap is a click on a phone.

import * as THREE from "three";
import type { Vec3 } from "../data/api";
import type { ViewModel } from "../data/model";
import type { Stage } from "../stage/stage";
import { t } from "../strings";
import type { TiledView } from "../tiles/tiledView";
import { MeasureDrawing, type Shape } from "./drawing";
import { axesOf, distance, footOf, metresText, perimeter, shoelaceArea, squareMetresText, type FloorLevel,
         type MeasureDetails, type MeasureKind, type Measurement } from "./geometry";
import { MeasurePanel, MeasureToolbar } from "./panel";
import { snapPoint, type SnappedPoint } from "./snap";

export interface MeasureHost {
  stage(): Stage | null;
  model(): ViewModel | null;
  tiled(): TiledView | null;
  /** A measurement is finished (the app keeps the last one: `window.sceneViewer.lastMeasurement`). */
  measured(m: Measurement): void;
  /** A tool was chosen, or left (null). */
  toolChanged(tool: MeasureKind | null): void;
}

interface Finished {
  m: Measurement;
  details: MeasureDetails;
  shape: Shape;
}

// Measurements kept in the panel and drawn (the oldest goes first).
const KEPT = 8;
// A click this close (CSS pixels) to an area's first corner closes it; one this close to the last adds nothing.
const CLOSE_PX = 12;
const SAME_PX = 3;

export class MeasureTools {
  private tool: MeasureKind | null = null;
  private pending: SnappedPoint[] = [];
  private done: Finished[] = [];
  private note: "missed" | "fewCorners" | null = null;
  private readonly toolbar: MeasureToolbar;
  private readonly panel: MeasurePanel;
  private readonly drawing = new MeasureDrawing();

  /** `root` is the viewer's (keys typed elsewhere are not the tool's). Make it before the viewer listens to keys
   *  (session/keys.ts): while measuring, Escape and Enter are the tool's. */
  constructor(private readonly root: HTMLElement, private readonly host: MeasureHost) {
    this.toolbar = new MeasureToolbar((kind) => this.choose(kind));
    this.panel = new MeasurePanel({ closeShape: () => this.closeArea(), clear: () => this.clear() });
    document.addEventListener("keydown", (e) => this.key(e));
  }

  /** The buttons, the panel and the marks over the canvas, in `overlay` (the stage's box), drawn through `stage`. */
  mount(overlay: HTMLElement, stage: Stage): void {
    overlay.append(this.drawing.layer, this.panel.el, this.toolbar.el);
    this.drawing.attach(stage);
  }

  /** The panel and the buttons, for the dock over the canvas' corner (panel/dock.ts). */
  get docked(): HTMLElement[] {
    return [this.panel.el, this.toolbar.el];
  }

  /** The tool in use, or null. */
  get active(): MeasureKind | null {
    return this.tool;
  }

  /** Its button pressed: use the tool, or leave it when it is the one in use. */
  choose(kind: MeasureKind): void {
    this.setTool(this.tool === kind ? null : kind);
  }

  private setTool(kind: MeasureKind | null): void {
    this.tool = kind;
    this.pending = [];
    this.note = null;
    if (kind) this.root.dataset.measuring = kind;
    else delete this.root.dataset.measuring;
    this.toolbar.setActive(kind);
    this.render();
    this.host.toolChanged(kind);
  }

  /** A new view: nothing measured in it yet, and no tool in use. */
  reset(): void {
    this.done = [];
    if (this.tool) this.setTool(null);
    else this.render();
  }

  /** A click on the canvas at CSS pixel (x, y) while a tool is in use. */
  click(x: number, y: number, e: MouseEvent): void {
    const stage = this.host.stage();
    if (!this.tool || !stage || !this.host.model() || e.detail > 1) return; // a double-click's second click adds nothing
    if (this.tool === "area" && this.pending.length >= 3 && this.nearScreen(stage, this.pending[0], x, y, CLOSE_PX)) {
      this.closeArea();
      return;
    }
    const last = this.pending[this.pending.length - 1];
    if (this.tool === "area" && last && this.nearScreen(stage, last, x, y, SAME_PX)) return;
    const point = snapPoint(stage, x, y, this.host.tiled());
    this.note = point ? null : "missed";
    if (point) {
      this.pending.push(point);
      if (this.tool === "distance" && this.pending.length === 2) this.finishDistance();
      else if (this.tool === "height") this.finishHeight();
    }
    this.render();
  }

  /** A double-click closes an area (its first click placed the last corner). */
  dblclick(): void {
    if (this.tool === "area") this.closeArea();
  }

  private key(e: KeyboardEvent): void {
    if (!this.tool || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const el = e.target as HTMLElement | null;
    if (el && el !== document.body && !this.root.contains(el)) return; // keys typed in the chat are the chat's
    if (el?.closest("input, textarea, select, [contenteditable]")) return;
    if (e.key === "Escape") {
      e.preventDefault();
      if (this.pending.length) {
        this.pending = [];
        this.note = null;
        this.render();
      } else {
        this.setTool(null);
      }
    } else if (e.key === "Enter" && this.tool === "area" && !(el instanceof HTMLButtonElement)) {
      e.preventDefault();
      this.closeArea();
    }
  }

  private clear(): void {
    this.done = [];
    this.pending = [];
    this.note = null;
    this.render();
  }

  /** Whether a clicked point is drawn within `px` of canvas pixel (x, y). */
  private nearScreen(stage: Stage, p: SnappedPoint, x: number, y: number, px: number): boolean {
    const at = stage.project(new THREE.Vector3(...this.drawn(p)));
    return !!at && Math.hypot(at.x - x, at.y - y) <= px;
  }

  /** Where a point is drawn: lifted with its floor. */
  private drawn(p: SnappedPoint, at: Vec3 = p.at): Vec3 {
    return footOf(at, at[this.axes().up] + p.lift, this.axes().up);
  }

  private axes(): ReturnType<typeof axesOf> {
    return axesOf(this.host.model()?.upAxis ?? "z");
  }

  private finishDistance(): void {
    const [a, b] = this.pending;
    const value = distance(a.at, b.at);
    const ends = [this.drawn(a), this.drawn(b)];
    const mid = ends[0].map((v, k) => (v + ends[1][k]) / 2) as Vec3;
    this.finish({ kind: "distance", value, unit: "m", points: [a.at, b.at] }, {},
                { kind: "distance", points: ends, closed: false, label: t("metres", { value: metresText(value) }), anchor: mid,
                  active: false, dots: ends });
  }

  private finishHeight(): void {
    const [p] = this.pending;
    const floor = this.floorUnder(p);
    if (!floor) return;
    const { up } = this.axes();
    const foot = footOf(p.at, floor.level, up);
    const value = p.at[up] - floor.level;
    const top = this.drawn(p);
    const bottom = this.drawn(p, foot);
    const mid = footOf(top, (top[up] + bottom[up]) / 2, up);
    this.finish({ kind: "height", value, unit: "m", points: [p.at, foot] }, { floor },
                { kind: "height", points: [top, bottom], closed: false, label: t("metres", { value: metresText(value) }), anchor: mid,
                  active: false, dots: [top] });
  }

  /** The floor below a point: its storey's elevation when the view knows it, else the lowest point of its room. */
  private floorUnder(p: SnappedPoint): FloorLevel | null {
    const model = this.host.model();
    const item = model?.items.find((i) => i.code === p.code);
    if (!model || !item) return null;
    const { up } = this.axes();
    const storey = model.floors.find((f) => f.code === item.floor);
    if (storey && storey.elevation !== null) return { level: storey.elevation, source: "storey", name: storey.name ?? storey.code };
    const room = model.items.find((i) => i.kind === "room" && i.code === item.room);
    if (room) return { level: room.sceneBounds.min[up], source: "room", name: room.name || room.code };
    const inRoom = model.items.filter((i) => i.room === item.room);
    return { level: Math.min(...inRoom.map((i) => i.sceneBounds.min[up])), source: "items", name: item.room };
  }

  /** Close the area's polygon (at least three corners). */
  private closeArea(): void {
    if (this.tool !== "area") return;
    if (this.pending.length < 3) {
      this.note = this.pending.length ? "fewCorners" : null;
      this.render();
      return;
    }
    const { up, across } = this.axes();
    const corners = this.pending.map((p) => p.at);
    const value = shoelaceArea(corners, across);
    const around = perimeter(corners, across);
    // drawn flat, at the corners' mean height: what is measured is the horizontal polygon
    const drawnCorners = this.pending.map((p) => this.drawn(p));
    const level = drawnCorners.reduce((s, p) => s + p[up], 0) / drawnCorners.length;
    const flat = drawnCorners.map((p) => footOf(p, level, up));
    const centre = flat.reduce((c, p) => c.map((v, k) => v + p[k] / flat.length) as Vec3, [0, 0, 0] as Vec3);
    this.finish({ kind: "area", value, unit: "m²", points: corners }, { perimeter: around },
                { kind: "area", points: flat, closed: true, label: t("squareMetres", { value: squareMetresText(value) }), anchor: centre,
                  active: false, dots: drawnCorners });
    this.render();
  }

  private finish(m: Measurement, details: MeasureDetails, shape: Shape): void {
    this.done.push({ m, details, shape });
    if (this.done.length > KEPT) this.done.shift();
    this.pending = [];
    this.note = null;
    this.host.measured({ ...m, points: m.points.map((p) => [...p] as Vec3) });
  }

  private render(): void {
    const stage = this.host.stage();
    if (stage) this.drawing.attach(stage);
    const shapes = this.tool ? this.done.map((f) => f.shape) : [];
    if (this.tool && this.pending.length) {
      const points = this.pending.map((p) => this.drawn(p));
      shapes.push({ kind: this.tool, points, closed: false, label: null, anchor: null, active: true, dots: points });
    }
    this.drawing.show(shapes);
    this.panel.render(this.tool ? { tool: this.tool, hint: this.hint(), rows: this.done.map((f) => ({ kind: f.m.kind, text: rowText(f) })),
                                    canClose: this.pending.length >= 3 } : null);
  }

  private hint(): string {
    if (this.note === "missed") return t("measureMissed");
    if (this.note === "fewCorners") return t("measureFewCorners");
    const n = this.pending.length;
    if (this.tool === "distance") return t(n ? "measureHintDistanceSecond" : "measureHintDistance");
    if (this.tool === "height") return t("measureHintHeight");
    return n ? t("measureHintAreaMore", { n }) : t("measureHintArea");
  }

  /** After every frame: the marks follow the camera. */
  place(): void {
    const stage = this.host.stage();
    if (stage) this.drawing.place((p) => stage.project(p));
  }

  renderTexts(): void {
    this.toolbar.renderTexts();
    this.done = this.done.map((f) => ({ ...f, shape: { ...f.shape, label: labelOf(f.m) } }));
    this.render();
  }
}

function labelOf(m: Measurement): string {
  return m.kind === "area" ? t("squareMetres", { value: squareMetresText(m.value) }) : t("metres", { value: metresText(m.value) });
}

/** A measurement in the panel's words. */
function rowText({ m, details }: Finished): string {
  if (m.kind === "distance") return t("measureRowDistance", { value: metresText(m.value) });
  if (m.kind === "area") return t("measureRowArea", { value: squareMetresText(m.value), perimeter: metresText(details.perimeter ?? 0) });
  const floor = details.floor!;
  const where = floor.source === "storey" ? t("measureFloorStorey", { name: floor.name, level: floor.level.toFixed(2) })
    : t("measureFloorRoom", { name: floor.name, level: floor.level.toFixed(2) });
  return t("measureRowHeight", { value: metresText(m.value), floor: where });
}
