// Labels over the canvas ("0-3-2 · chair"), HTML so that they stay sharp and readable, moved to their
// anchor's screen position after every frame, kept inside the canvas sideways and above the layer's bottom (which
// ends above the status line). Labels never cover each other: in order of importance (hovered, picked, candidates,
// then the rest) each takes its place above its anchor, or the nearest free place above or below it, joined to the
// anchor by a leader line; one that finds no free place is hidden, unless it is important (then it stays where it
// fits least badly).

import * as THREE from "three";
import "./labels.css";

export interface LabelSpec {
  key: string;
  text: string;
  anchor: THREE.Vector3;
  /** CSS state class: candidate, picked, hovered, focus, object. */
  kind: string;
}

type Project = (p: THREE.Vector3) => { x: number; y: number } | null;

/** Lower first: placed first, so kept where it belongs. */
const RANK: Record<string, number> = { hovered: 0, picked: 1, candidate: 2, focus: 3, object: 4 };
const IMPORTANT = 2;
// Label bottoms sit this far above their anchor (viewer.css gives them margin-top: -4px).
const LIFT_PX = 4;
const GAP_PX = 2;
const EDGE_PX = 4;
// Places tried, in label heights from the one above the anchor: up first (labels read as "above").
const STEPS = [0, -1, -2, 1, -3, 2, -4, -5, 3, -6];

interface Shown {
  el: HTMLElement;
  leader: HTMLElement;
  spec: LabelSpec;
  size: { w: number; h: number } | null;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

export class Labels {
  private readonly layer: HTMLElement;

  get element(): HTMLElement {
    return this.layer;
  }
  private readonly shown = new Map<string, Shown>();

  constructor(parent: HTMLElement) {
    this.layer = document.createElement("div");
    this.layer.className = "sv-labels";
    this.layer.setAttribute("aria-hidden", "true"); // the candidate list says the same to assistive technology
    parent.appendChild(this.layer);
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
      const className = `sv-label sv-label-${spec.kind}`;
      if (entry.el.className !== className || entry.el.textContent !== spec.text) entry.size = null; // measured again
      entry.spec = spec;
      entry.el.className = className;
      entry.el.dataset.label = spec.key;
      if (entry.el.textContent !== spec.text) entry.el.textContent = spec.text;
    }
  }

  /** Follow the camera: every label near its anchor, none over another. */
  place(project: Project): void {
    const placed: Box[] = [];
    const todo: { entry: Shown; at: { x: number; y: number } }[] = [];
    const width = this.layer.clientWidth;
    const height = this.layer.clientHeight; // the layer ends above the status line (viewer.css): no label goes over it
    for (const entry of this.shown.values()) {
      const at = project(entry.spec.anchor);
      if (!at) this.hide(entry);
      else todo.push({ entry, at });
    }
    // Sizes are read once per text (one layout for all new labels), not every frame.
    const unmeasured = todo.filter((t) => !t.entry.size);
    for (const { entry } of unmeasured) entry.el.style.display = "";
    for (const { entry } of unmeasured) entry.size = { w: entry.el.offsetWidth, h: entry.el.offsetHeight };
    todo.sort((a, b) => (RANK[a.entry.spec.kind] ?? 9) - (RANK[b.entry.spec.kind] ?? 9));
    for (const { entry, at } of todo) {
      const { w, h } = entry.size!;
      // kept inside the canvas sideways (a candidate at the edge keeps a readable label)
      const x0 = width > w + 2 * EDGE_PX ? Math.min(Math.max(at.x - w / 2, EDGE_PX), width - EDGE_PX - w) : at.x - w / 2;
      const boxAt = (step: number): Box => {
        const top = step > 0 ? at.y + LIFT_PX + (step - 1) * (h + GAP_PX) : at.y - LIFT_PX - h + step * (h + GAP_PX);
        return { x0, y0: top, x1: x0 + w, y1: top + h };
      };
      let step = STEPS.find((s) => boxAt(s).y1 <= height && !placed.some((p) => overlaps(p, boxAt(s))));
      if (step === undefined) {
        if ((RANK[entry.spec.kind] ?? 9) > IMPORTANT) {
          this.hide(entry);
          continue;
        }
        step = 0;
      }
      const box = boxAt(step);
      placed.push(box);
      entry.el.style.display = "";
      // the label's own CSS (viewer.css) moves it up by LIFT_PX: place its top-left at the box's
      entry.el.style.transform = `translate(${box.x0.toFixed(1)}px, ${(box.y0 + LIFT_PX).toFixed(1)}px)`;
      this.lead(entry, at, step === 0 ? null : box);
    }
  }

  /** A line from the anchor to a label moved away from it (none for a label in its place). */
  private lead(entry: Shown, at: { x: number; y: number }, box: Box | null): void {
    if (!box) {
      entry.leader.style.display = "none";
      return;
    }
    const top = Math.min(at.y, box.y1);
    const bottom = Math.max(at.y, box.y0);
    entry.leader.style.display = "";
    entry.leader.style.height = `${Math.max(0, bottom - top).toFixed(1)}px`;
    entry.leader.style.transform = `translate(${at.x.toFixed(1)}px, ${top.toFixed(1)}px)`;
  }

  private hide(entry: Shown): void {
    entry.el.style.display = "none";
    entry.leader.style.display = "none";
  }
}
