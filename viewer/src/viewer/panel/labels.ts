// Labels over the canvas ("0-3-2 · chair"), HTML so that they stay sharp and readable, moved after every frame
// to where labelLayout.ts puts them: beside a candidate's box (never over a candidate), else above their anchor,
// never over each other or a panel, at most a readable number, none for what is off the screen, none over the
// status line (the layer ends above it). A candidate's
// label is pickable: a click or a tap on it picks the candidate (`onPick`).

import * as THREE from "three";
import type { Bounds } from "../data/api";
import type { ScreenRect } from "../stage/framing";
import { layoutLabels, readableCount, type LabelBox, type Placement, type Rect } from "./labelLayout";
import "./labels.css";

export interface LabelSpec {
  key: string;
  text: string;
  anchor: THREE.Vector3;
  /** CSS state class: candidate, picked, hovered, focus, object. */
  kind: string;
  /** An object candidate's box: the label goes beside it, and no label covers it. */
  box?: Bounds;
  /** A click on the label picks `key`. */
  pickable?: boolean;
}

/** What the labels are placed over (the stage). */
export interface LabelView {
  project(p: THREE.Vector3): { x: number; y: number } | null;
  projectBox(bounds: Bounds): ScreenRect | null;
  readonly size: { width: number; height: number };
}

/** Lower first: placed first, so kept where it belongs. */
const RANK: Record<string, number> = { hovered: 0, picked: 1, candidate: 2, focus: 3, object: 4 };
// The label's own CSS (viewer.css) moves it up by this much.
const CSS_LIFT_PX = 4;

interface Shown {
  el: HTMLElement;
  leader: HTMLElement;
  spec: LabelSpec;
  size: { w: number; h: number } | null;
}

const rectOf = (r: ScreenRect): Rect => ({ x0: r.left, y0: r.top, x1: r.left + r.width, y1: r.top + r.height });

export class Labels {
  private readonly layer: HTMLElement;

  get element(): HTMLElement {
    return this.layer;
  }
  private readonly shown = new Map<string, Shown>();
  /** A pickable label was clicked or tapped: pick what it names. */
  onPick: (key: string) => void = () => undefined;
  /** What the camera was last framed on: labelled before the rest. */
  framed = new Set<string>();
  /** The pointer is over a pickable label (null: it left). */
  onHover: (key: string | null) => void = () => undefined;

  constructor(parent: HTMLElement) {
    this.layer = document.createElement("div");
    this.layer.className = "sv-labels";
    this.layer.setAttribute("aria-hidden", "true"); // the candidate list says the same to assistive technology
    parent.appendChild(this.layer);
    const pickable = (e: Event) => (e.target as HTMLElement).closest<HTMLElement>(".sv-label-pickable")?.dataset.label ?? null;
    this.layer.addEventListener("click", (e) => {
      const key = pickable(e);
      if (key) this.onPick(key);
    });
    this.layer.addEventListener("pointerover", (e) => this.onHover(pickable(e)));
    this.layer.addEventListener("pointerout", () => this.onHover(null));
  }

  /** Show exactly these labels (kept elements are reused). */
  set(specs: LabelSpec[]): void {
    const keep = new Set(specs.map((s) => s.key));
    for (const [key, entry] of this.shown) {
      if (!keep.has(key)) {
        entry.el.remove();
        entry.leader.remove();
        this.shown.delete(key);
      }
    }
    for (const spec of specs) {
      let entry = this.shown.get(spec.key);
      if (!entry) {
        const el = document.createElement("div");
        const leader = document.createElement("div");
        leader.className = "sv-label-leader";
        leader.style.display = "none";
        this.layer.append(leader, el);
        entry = { el, leader, spec, size: null };
        this.shown.set(spec.key, entry);
      }
      const className = `sv-label sv-label-${spec.kind}${spec.pickable ? " sv-label-pickable" : ""}`;
      if (entry.el.className !== className || entry.el.textContent !== spec.text) entry.size = null; // measured again
      entry.spec = spec;
      entry.el.className = className;
      entry.el.dataset.label = spec.key;
      if (entry.el.textContent !== spec.text) entry.el.textContent = spec.text;
    }
  }

  /** Follow the camera: every label beside what it names, none over another or over a candidate; how many are drawn. */
  place(view: LabelView, covered: ScreenRect[]): number {
    const todo: Shown[] = [];
    for (const entry of this.shown.values()) todo.push(entry);
    // Sizes are read once per text (one layout for all new labels), not every frame.
    const unmeasured = todo.filter((e) => !e.size);
    for (const entry of unmeasured) entry.el.style.display = "";
    for (const entry of unmeasured) entry.size = { w: entry.el.offsetWidth, h: entry.el.offsetHeight };
    const boxes: LabelBox[] = [];
    const keepOff = covered.map(rectOf);
    for (const entry of todo) {
      const projected = entry.spec.box ? view.projectBox(entry.spec.box) : null;
      const box = projected && rectOf(projected);
      if (box) keepOff.push(box);
      const point = box ? null : view.project(entry.spec.anchor);
      boxes.push({ key: entry.spec.key, rank: RANK[entry.spec.kind] ?? 9, framed: this.framed.has(entry.spec.key), w: entry.size!.w,
                   h: entry.size!.h, box, point });
    }
    const width = view.size.width;
    const height = Math.min(view.size.height, this.layer.clientHeight || view.size.height); // the layer ends above the status line
    const placed = layoutLabels(boxes, { width, height }, keepOff, readableCount(width, height));
    for (const entry of todo) {
      const at = placed.get(entry.spec.key);
      if (at) this.show(entry, at);
      else this.hide(entry);
    }
    return placed.size;
  }

  private show(entry: Shown, at: Placement): void {
    entry.el.style.display = "";
    // the label's own CSS (viewer.css) moves it up by CSS_LIFT_PX: place its top-left at the place's
    entry.el.style.transform = `translate(${at.x.toFixed(1)}px, ${(at.y + CSS_LIFT_PX).toFixed(1)}px)`;
    if (!at.lead) {
      entry.leader.style.display = "none";
      return;
    }
    entry.leader.style.display = "";
    entry.leader.style.height = `${Math.max(0, at.lead.y1 - at.lead.y0).toFixed(1)}px`;
    entry.leader.style.transform = `translate(${at.lead.x.toFixed(1)}px, ${at.lead.y0.toFixed(1)}px)`;
  }

  private hide(entry: Shown): void {
    entry.el.style.display = "none";
    entry.leader.style.display = "none";
  }
}
