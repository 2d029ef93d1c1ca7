// The minimap: a small plan of the floor (plan.ts) in the canvas' bottom right corner — its rooms' footprints with
// their names or codes where they fit, the room looked inside and what was framed lit, and the camera: a dot where it
// stands and a wedge the way it looks, following every frame. A click on a room shows that room (the app frames it on
// its floor). It folds to its title: open at first in a building (a dozen rooms or more) on a wide screen, folded in
// a small home, where it adds little, and on a phone, where it would cover too much of the view; then as the user
// leaves it.
// Drawn in SVG: sharp at any pixel ratio, each room an element of its own (and the page's one canvas stays the 3D one).

import type { SceneCamera } from "../../contracts";
import { getLang } from "../../i18n";
import type { ViewModel } from "../data/model";
import { h, setText } from "../panel/dom";
import { tw } from "../wayfindStrings";
import { floorPlan, horizontalAxes, planFloor, PlanFit, type Plan } from "./plan";

export interface MinimapHost {
  model(): ViewModel | null;
  floor(): string | null;
  drillRoom(): string | null;
  /** Codes lit on the plan (what was framed last). */
  lit(): string[];
  camera(): SceneCamera | null;
  /** A room was clicked. */
  open(code: string): void;
}

/** `window.sceneViewer.minimap`: what the plan shows, in client pixels. */
export interface MinimapHook {
  open: boolean;
  floor: string | null;
  rooms: { code: string; left: number; top: number; right: number; bottom: number }[];
  /** The camera's marker and the way it looks (radians, 0 = east on the plan, counter-clockwise), or null. */
  camera: { x: number; y: number; heading: number } | null;
}

const SVG = "http://www.w3.org/2000/svg";
const NARROW_PX = 800;
const BUILDING_ROOMS = 12;
const WEDGE_PX = 22;
const WEDGE_HALF_RAD = 0.45;
const HEIGHT_MIN_PX = 60;
const FONT_PX = 10;
// Roughly how wide a character of the labels is (no text is measured per frame).
const CHAR_PX = 5.6;

/** How wide a label's text is drawn, roughly: a Chinese character is as wide as two others. */
function textPx(text: string): number {
  return [...text].reduce((n, c) => n + (c.charCodeAt(0) >= 0x2e80 ? 2 : 1), 0) * CHAR_PX;
}

/** The plan's words change with the language and once a model's Chinese names have come (data/names.ts). */
function wordsKey(model: ViewModel): string {
  return getLang() === "zh" ? `zh ${model.items.some((i) => i.kind === "room" && i.nameZh !== null)}` : "en";
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

export class Minimap {
  private readonly toggle = h("button", { type: "button", class: "sv-minimap-head", "data-testid": "minimap-toggle", "aria-expanded": "true" });
  private readonly plane = svg("svg", { class: "sv-minimap-plan", role: "img" });
  private readonly roomsLayer = svg("g");
  private readonly cameraMark = svg("g", { class: "sv-minimap-camera" });
  readonly element = h("section", { class: "sv-minimap", "data-testid": "minimap" }, this.toggle);
  private plan: Plan | null = null;
  private planOf: ViewModel | null = null;
  /** The language and the Chinese names the plan's words were written in (wordsKey). */
  private planWords = "";
  private fit: PlanFit | null = null;
  private rects = new Map<string, SVGRectElement>();
  private marker: MinimapHook["camera"] = null;
  private laidOut = "";
  private placedCamera = "";
  private folded = true;
  private chosen = false;

  constructor(private readonly root: HTMLElement, private readonly host: MinimapHost) {
    const wedge = svg("path", { class: "sv-minimap-wedge" });
    this.cameraMark.append(wedge, svg("circle", { r: 4, class: "sv-minimap-dot" }));
    this.plane.append(this.roomsLayer, this.cameraMark);
    this.element.append(this.plane);
    root.append(this.element);
    this.toggle.addEventListener("click", () => {
      this.chosen = true;
      this.setFolded(!this.folded);
    });
    this.plane.addEventListener("click", (e) => {
      const code = (e.target as Element).closest("[data-plan-room]")?.getAttribute("data-plan-room");
      if (code) host.open(code);
    });
    this.setFolded(this.folded);
  }

  renderTexts(): void {
    const floor = this.plan?.floor;
    setText(this.toggle, `${floor !== undefined ? tw("planOfFloor", { code: floor }) : tw("plan")} ${this.folded ? "▸" : "▾"}`);
    this.toggle.title = tw(this.folded ? "planShow" : "planHide");
    this.plane.setAttribute("aria-label", tw("planLabel"));
  }

  /** Draw again what changed (after every frame, and when the place changes): the rooms, what is lit, the camera. */
  update(): void {
    const model = this.host.model();
    const camera = this.host.camera();
    const floor = model ? planFloor(model, this.host.floor(), this.host.drillRoom(), camera?.target ?? null) : null;
    if (!model || floor === null) this.plan = null;
    else if (this.plan?.floor !== floor || this.planOf !== model || this.planWords !== wordsKey(model)) {
      if (this.planOf !== model && !this.chosen) {
        const building = model.items.filter((i) => i.kind === "room").length >= BUILDING_ROOMS;
        this.fold(!building || (this.root.clientWidth || window.innerWidth) < NARROW_PX);
      }
      this.plan = floorPlan(model, floor);
      this.planOf = model;
      this.planWords = wordsKey(model);
      this.laidOut = "";
      this.renderTexts();
    }
    this.element.hidden = !this.plan;
    if (!model || !this.plan || this.folded) return;
    const width = this.plane.clientWidth;
    if (!width) return;
    const layout = `${this.plan.floor}|${width}`;
    if (layout !== this.laidOut) this.layOut(this.plan, width);
    this.laidOut = layout;
    const lit = new Set([this.host.drillRoom(), ...this.host.lit()]);
    for (const [code, rect] of this.rects) rect.classList.toggle("sv-lit", lit.has(code));
    this.placeCamera(model, camera);
  }

  get hook(): MinimapHook {
    const at = this.plane.getBoundingClientRect();
    const fit = this.fit;
    const open = !this.folded && !!this.plan;
    const rooms = this.plan && fit && open ? this.plan.rooms.map((r) => {
      const a = fit.toCanvas(r.rect.x0, r.rect.y1);
      const b = fit.toCanvas(r.rect.x1, r.rect.y0);
      return { code: r.code, left: at.left + a.x, top: at.top + a.y, right: at.left + b.x, bottom: at.top + b.y };
    }) : [];
    const marker = this.marker && open ? { ...this.marker, x: at.left + this.marker.x, y: at.top + this.marker.y } : null;
    return { open, floor: this.plan?.floor ?? null, rooms, camera: marker };
  }

  private setFolded(folded: boolean): void {
    this.fold(folded);
    this.renderTexts();
    this.update();
  }

  private fold(folded: boolean): void {
    this.folded = folded;
    this.plane.style.display = folded ? "none" : "";
    this.element.classList.toggle("sv-minimap-folded", folded);
    this.toggle.setAttribute("aria-expanded", String(!folded));
    this.laidOut = "";
  }

  /** The rooms of the plan at `width` pixels (as tall as the plan needs: a long block is a low strip). */
  private layOut(plan: Plan, width: number): void {
    const { x0, y0, x1, y1 } = plan.extent;
    const height = Math.round(Math.min(Math.max((width - 16) * (y1 - y0) / Math.max(x1 - x0, 1e-3) + 16, HEIGHT_MIN_PX), width * 0.8));
    this.plane.style.height = `${height}px`;
    this.plane.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const fit = (this.fit = new PlanFit(plan.extent, width, height));
    this.rects.clear();
    const parts: SVGElement[] = [];
    for (const room of plan.rooms) {
      const a = fit.toCanvas(room.rect.x0, room.rect.y1);
      const b = fit.toCanvas(room.rect.x1, room.rect.y0);
      const [w, hgt] = [b.x - a.x, b.y - a.y];
      const rect = svg("rect", { x: a.x + 0.5, y: a.y + 0.5, width: Math.max(w - 1, 0.5), height: Math.max(hgt - 1, 0.5),
                                  class: "sv-minimap-room", "data-plan-room": room.code });
      const title = svg("title");
      title.textContent = room.title;
      rect.append(title);
      this.rects.set(room.code, rect);
      parts.push(rect);
      // its name where it fits, else its code, else nothing
      const text = [room.short, room.code].find((s) => textPx(s) <= w - 4 && hgt >= FONT_PX + 2);
      if (text) {
        const label = svg("text", { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, class: "sv-minimap-label" });
        label.textContent = text;
        parts.push(label);
      }
    }
    this.roomsLayer.replaceChildren(...parts);
    this.placedCamera = "";
  }

  /** The camera's dot and the wedge it looks along (kept at the plan's edge when it stands outside it). */
  private placeCamera(model: ViewModel, camera: SceneCamera | null): void {
    const fit = this.fit;
    const key = camera && fit ? JSON.stringify([camera.position, camera.target]) : "";
    if (key === this.placedCamera) return;
    this.placedCamera = key;
    this.cameraMark.style.display = key ? "" : "none";
    if (!camera || !fit) {
      this.marker = null;
      return;
    }
    const [a, b] = horizontalAxes(model);
    const at = fit.toCanvas(camera.position[a], camera.position[b]);
    const x = Math.min(Math.max(at.x, 4), fit.width - 4);
    const y = Math.min(Math.max(at.y, 4), fit.height - 4);
    let dx = camera.target[a] - camera.position[a];
    let dy = camera.target[b] - camera.position[b];
    if (Math.hypot(dx, dy) < 1e-3 && camera.up) [dx, dy] = [camera.up[a], camera.up[b]]; // looking straight down: the screen's up
    const heading = Math.atan2(dy, dx);
    // the wedge: from the dot, WEDGE_PX long, opening ±WEDGE_HALF_RAD around the heading (y grows downwards)
    const end = (turn: number) => `${(WEDGE_PX * Math.cos(heading + turn)).toFixed(1)} ${(-WEDGE_PX * Math.sin(heading + turn)).toFixed(1)}`;
    this.cameraMark.firstElementChild!.setAttribute("d", `M0 0L${end(-WEDGE_HALF_RAD)}A${WEDGE_PX} ${WEDGE_PX} 0 0 0 ${end(WEDGE_HALF_RAD)}Z`);
    this.cameraMark.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
    this.marker = { x, y, heading };
  }
}
