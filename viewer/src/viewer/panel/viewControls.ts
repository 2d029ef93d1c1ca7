// The view controls: a compact toolbar of how the scene is drawn — "Frame all", and a "View" panel with the
// colour mode (true colour, by room, by object) and its legend, the point size, a section height ("cut
// above"), "hide walls, floors and ceilings" and "explode floors". Mounted in a container the app gives
// (the title bar); the panel folds away (folded at first on a narrow screen, so that it covers no
// candidate on a phone). It draws through the stage (point size, section, lifted clouds) and tells the
// app when items must be restyled or framed again.

import "./viewControls.css";
import { h, setText } from "./dom";
import { DEFAULT_OPTIONS, legendOf, type ColourMode, type LegendEntry, type ViewOptions } from "../looks/colourModes";
import { explodeFloors, itemsOf, unionBounds, type Item, type ViewModel } from "../data/model";
import type { ScreenRect, Stage } from "../stage/stage";
import { t, type StringKey } from "../strings";
import { coveringRects, freeRects } from "../stage/visibleRect";

export interface ViewControlsEvents {
  /** How items are drawn changed: restyle them; `reframe` when they moved (floors exploded or put back). */
  changed(reframe: boolean): void;
  /** "Frame all": frame the candidates (a pick), the focus (a view), or what is shown. */
  frameAll(): void;
  /** The cut's height moved: the labels follow (none above it). */
  cut(): void;
}

/** `window.sceneViewer.view`: the controls' state and the 3D side's geometry, for tests. */
export interface ViewHook {
  options: ViewOptions;
  pointScale: number;
  /** The section height in the scene, or null for none. */
  section: number | null;
  exploded: boolean;
  legend: LegendEntry[];
  /** Client rectangle an item's box covers on screen (null: not shown or behind the camera). */
  screenBox(code: string): { left: number; top: number; right: number; bottom: number } | null;
  /** Client rectangle where the last framing put what it framed (a part of the canvas nothing covers). */
  framedRect(): { left: number; top: number; right: number; bottom: number } | null;
}

const MODES: { mode: ColourMode; key: StringKey }[] = [
  { mode: "true", key: "colourTrue" }, { mode: "room", key: "colourRoom" }, { mode: "object", key: "colourObject" },
];
// Narrower than this (CSS pixels of the viewer), the panel starts folded.
const FOLDED_BELOW_PX = 800;
const SECTION_STEP_M = 0.05;

let uid = 0;

export class ViewControls {
  readonly element: HTMLElement;
  private readonly frameButton = h("button", { type: "button", class: "sv-tool", "data-testid": "frame-all" });
  private readonly foldButton = h("button", { type: "button", class: "sv-tool svc-fold", "data-testid": "view-options",
                                              "aria-expanded": "false" });
  private readonly body = h("div", { class: "svc-body", "data-testid": "view-panel", hidden: true });
  private readonly modeGroup = h("div", { class: "svc-modes", role: "group", "data-testid": "colour-mode" });
  private readonly modeLabel = h("span", { class: "svc-caption" });
  private readonly modeButtons = MODES.map(({ mode }) =>
    h("button", { type: "button", class: "sv-tool", "data-colour-mode": mode, "aria-pressed": String(mode === "true") }));
  private readonly legend = h("ul", { class: "svc-legend", "data-testid": "legend", hidden: true });
  private readonly sizeText = h("span", { class: "svc-caption" });
  private readonly size = h("input", { type: "range", min: "0.25", max: "3", step: "0.05", value: "1", "data-testid": "point-size" });
  private readonly cutText = h("span", { class: "svc-caption" });
  private readonly cutValue = h("output", { class: "svc-value", "data-testid": "section-value" });
  private readonly cut = h("input", { type: "range", min: "0", max: "1", step: String(SECTION_STEP_M), value: "1",
                                      "data-testid": "section-height" });
  private readonly structure = h("input", { type: "checkbox", "data-testid": "hide-structure" });
  private readonly structureText = h("span");
  private readonly explode = h("input", { type: "checkbox", "data-testid": "explode-floors" });
  private readonly explodeText = h("span");
  private readonly explodeRow: HTMLElement;

  options: ViewOptions = { ...DEFAULT_OPTIONS };
  private pointScale = 1;
  private exploded = false;
  private stage: Stage | null = null;
  private model: ViewModel | null = null;
  private entries: LegendEntry[] = [];
  private folded: boolean;

  constructor(container: HTMLElement, private readonly root: HTMLElement, private readonly on: ViewControlsEvents) {
    const id = `svc-panel-${++uid}`;
    this.body.id = id;
    this.foldButton.setAttribute("aria-controls", id);
    this.modeGroup.append(...this.modeButtons);
    // the slider's label holds its caption only (its value beside it is an output of its own)
    const field = (caption: HTMLElement, input: HTMLElement, value?: HTMLElement) => {
      input.id = `${id}-${input.dataset.testid}`;
      const label = h("label", { class: "svc-caption", for: input.id }, caption);
      return h("div", { class: "svc-field" }, h("div", { class: "svc-field-head" }, label, ...(value ? [value] : [])), input);
    };
    const check = (input: HTMLElement, text: HTMLElement) => h("label", { class: "svc-check" }, input, text);
    this.explodeRow = check(this.explode, this.explodeText);
    this.body.append(this.modeLabel, this.modeGroup, this.legend, field(this.sizeText, this.size),
                     field(this.cutText, this.cut, this.cutValue), check(this.structure, this.structureText), this.explodeRow);
    this.element = h("div", { class: "svc", "data-testid": "view-controls" }, this.frameButton, this.foldButton, this.body);
    container.append(this.element);
    this.folded = (root.clientWidth || window.innerWidth) < FOLDED_BELOW_PX; // the viewer may be out of sight (a tab)
    this.setFolded(this.folded);

    this.frameButton.addEventListener("click", () => on.frameAll());
    this.foldButton.addEventListener("click", () => this.setFolded(!this.folded));
    this.modeButtons.forEach((button, k) => button.addEventListener("click", () => this.setColour(MODES[k].mode)));
    this.size.addEventListener("input", () => {
      this.pointScale = Number(this.size.value);
      this.size.setAttribute("aria-valuetext", `× ${this.pointScale.toFixed(2)}`);
      this.stage?.setPointScale(this.pointScale);
    });
    this.cut.addEventListener("input", () => this.applySection());
    this.structure.addEventListener("change", () => {
      this.options = { ...this.options, hideStructure: this.structure.checked };
      on.changed(false);
    });
    this.explode.addEventListener("change", () => this.setExploded(this.explode.checked));
    this.renderTexts();
  }

  /** The stage the controls draw through (made once WebGL is up). */
  attach(stage: Stage): void {
    this.stage = stage;
    stage.setPointScale(this.pointScale);
    this.applySection();
    // Panels change size after a view is framed (a pick's countdown, a message, the list looked inside, a
    // phone's sheet): what was framed is framed again if one now covers it or it no longer fits the
    // canvas, unless the user has moved the camera since.
    const observer = new ResizeObserver(() => {
      if (!this.refitFrame) this.refitFrame = requestAnimationFrame(() => this.refitIfCovered());
    });
    for (const el of [...this.root.querySelectorAll(":scope > *, :scope > * > *")]) if (el !== stage.canvas) observer.observe(el);
  }

  private refitFrame = 0;

  private refitIfCovered(): void {
    this.refitFrame = 0;
    const stage = this.stage;
    const bounds = stage?.framedBounds;
    const shown = bounds && stage.projectBox(bounds);
    if (!stage || !bounds || !shown) return;
    const rects = coveringRects(this.root, stage.canvas);
    if (!this.body.hidden) rects.push(this.bodyRect(stage));
    const meets = (r: ScreenRect) => r.left < shown.left + shown.width && shown.left < r.left + r.width
      && r.top < shown.top + shown.height && shown.top < r.top + r.height;
    const { width, height } = stage.size;
    const out = shown.left < 0 || shown.top < 0 || shown.left + shown.width > width || shown.top + shown.height > height;
    if (out || rects.some(meets)) stage.frame(bounds, this.visibleRects());
  }

  private bodyRect(stage: Stage): ScreenRect {
    const at = stage.canvas.getBoundingClientRect();
    const r = this.body.getBoundingClientRect();
    return { left: r.left - at.left, top: r.top - at.top, width: r.width, height: r.height };
  }

  /** Another group of controls at the end of the View panel (the clip box: clipControls.ts). */
  addSection(el: HTMLElement): void {
    this.body.append(el);
  }

  /** A new view: floors exploded as chosen, the section's range its height (and no section). */
  showModel(model: ViewModel): void {
    this.model = model;
    explodeFloors(model, this.exploded);
    this.stage?.relift();
    this.explodeRow.hidden = model.floors.length < 2;
    const lo = Math.min(...model.items.map((i) => i.sceneBounds.min[2]));
    const hi = Math.max(...model.items.map((i) => i.sceneBounds.max[2]));
    const ok = Number.isFinite(lo) && Number.isFinite(hi) && hi > lo;
    this.cut.min = (ok ? Math.floor(lo / SECTION_STEP_M) * SECTION_STEP_M : 0).toFixed(2);
    this.cut.max = (ok ? Math.ceil(hi / SECTION_STEP_M) * SECTION_STEP_M : 1).toFixed(2);
    this.cut.value = this.cut.max;
    this.applySection();
  }

  /** After every restyle: the legend of the colour mode, for the items `shown`. */
  update(shown: Item[]): void {
    const model = this.model;
    const entries = model ? legendOf(model, this.options.colour, shown) : [];
    // restyles come with every hover: the list is only rebuilt when it changes
    const key = (list: LegendEntry[]) => list.map((e) => `${e.code}${e.color}${e.name}`).join("|");
    if (key(entries) === key(this.entries) && this.legend.childElementCount === entries.length) return;
    this.entries = entries;
    this.legend.replaceChildren(...this.entries.map((e) =>
      h("li", { class: "svc-legend-row", "data-legend-code": e.code },
        h("span", { class: "svc-swatch", style: `background:${e.color}`, "aria-hidden": "true" }), h("span", {}, e.name))));
    this.legend.hidden = this.entries.length === 0;
  }

  renderTexts(): void {
    setText(this.frameButton, t("frameAll"));
    this.frameButton.title = t("frameAllTitle");
    setText(this.foldButton, `${t("viewOptions")} ${this.folded ? "▾" : "▴"}`);
    this.foldButton.title = t("viewOptionsTitle");
    setText(this.modeLabel, t("colourMode"));
    this.modeGroup.setAttribute("aria-label", t("colourMode"));
    this.modeButtons.forEach((b, k) => setText(b, t(MODES[k].key)));
    this.legend.setAttribute("aria-label", t("legend"));
    setText(this.sizeText, t("pointSize"));
    this.size.setAttribute("aria-label", t("pointSize"));
    setText(this.cutText, t("cutAbove"));
    this.cut.setAttribute("aria-label", t("cutAbove"));
    setText(this.structureText, t("hideStructure"));
    setText(this.explodeText, t("explodeFloors"));
    this.showSectionValue();
  }

  /**
   * The parts of the stage's canvas nothing covers (title bar, side panel or sheet, this panel when open),
   * in the canvas' CSS pixels, largest first: framing puts what it frames in the one that shows it largest.
   */
  visibleRects(): ScreenRect[] | undefined {
    if (!this.stage) return undefined;
    const { width, height } = this.stage.size;
    return freeRects({ left: 0, top: 0, width, height }, this.coveredRects());
  }

  /** What covers the canvas (title bar, side panel, this panel when open), in the canvas' CSS pixels. */
  coveredRects(): ScreenRect[] {
    const canvas = this.stage?.canvas;
    if (!canvas) return [];
    const rects = coveringRects(this.root, canvas);
    if (!this.body.hidden) rects.push(this.bodyRect(this.stage!));
    return rects;
  }

  private setFolded(folded: boolean): void {
    this.folded = folded;
    this.body.hidden = folded;
    this.foldButton.setAttribute("aria-expanded", String(!folded));
    this.renderTexts();
  }

  private setColour(mode: ColourMode): void {
    this.options = { ...this.options, colour: mode };
    this.modeButtons.forEach((b, k) => b.setAttribute("aria-pressed", String(MODES[k].mode === mode)));
    this.on.changed(false);
  }

  private setExploded(on: boolean): void {
    this.exploded = on;
    this.explode.checked = on;
    if (this.model) explodeFloors(this.model, on);
    this.stage?.relift();
    this.on.changed(true);
  }

  /** The slider at its top means no section. */
  private applySection(): void {
    const z = Number(this.cut.value) >= Number(this.cut.max) ? Infinity : Number(this.cut.value);
    this.stage?.setSection(z);
    this.showSectionValue();
    this.on.cut();
  }

  private showSectionValue(): void {
    const z = Number(this.cut.value);
    const off = z >= Number(this.cut.max);
    setText(this.cutValue, off ? t("cutOff") : t("cutAt", { metres: z.toFixed(2) }));
    this.cut.setAttribute("aria-valuetext", this.cutValue.textContent ?? "");
  }

  /** `window.sceneViewer.view` (hooks.ts). */
  testHook(): ViewHook {
    const client = (r: ScreenRect | null | undefined) => {
      const at = this.stage?.canvas.getBoundingClientRect();
      return r && at ? { left: at.left + r.left, top: at.top + r.top, right: at.left + r.left + r.width, bottom: at.top + r.top + r.height }
        : null;
    };
    const self = this;
    return {
      get options() { return self.options; },
      get pointScale() { return self.pointScale; },
      get section() { return self.stage && Number.isFinite(self.stage.section) ? self.stage.section : null; },
      get exploded() { return self.exploded; },
      get legend() { return self.entries; },
      screenBox: (code) => {
        const bounds = this.model ? unionBounds(itemsOf(this.model, code).map((i) => i.bounds)) : null;
        return bounds && this.stage ? client(this.stage.projectBox(bounds)) : null;
      },
      framedRect: () => client(this.stage?.framedRect),
    };
  }
}
