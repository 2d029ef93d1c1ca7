// Labels over the canvas ("0-3-2 · chair"), HTML so that they stay sharp and readable, moved to their
// anchor's screen position after every frame.

import * as THREE from "three";

export interface LabelSpec {
  key: string;
  text: string;
  anchor: THREE.Vector3;
  /** CSS state class: candidate, picked, hovered, focus, object. */
  kind: string;
}

type Project = (p: THREE.Vector3) => { x: number; y: number } | null;

export class Labels {
  private readonly layer: HTMLElement;

  get element(): HTMLElement {
    return this.layer;
  }
  private readonly shown = new Map<string, { el: HTMLElement; spec: LabelSpec }>();

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
        this.shown.delete(key);
      }
    }
    for (const spec of specs) {
      let entry = this.shown.get(spec.key);
      if (!entry) {
        const el = document.createElement("div");
        this.layer.appendChild(el);
        entry = { el, spec };
        this.shown.set(spec.key, entry);
      }
      entry.spec = spec;
      entry.el.className = `sv-label sv-label-${spec.kind}`;
      entry.el.dataset.label = spec.key;
      if (entry.el.textContent !== spec.text) entry.el.textContent = spec.text;
    }
  }

  /** Follow the camera. */
  place(project: Project): void {
    for (const { el, spec } of this.shown.values()) {
      const at = project(spec.anchor);
      if (!at) {
        el.style.display = "none";
        continue;
      }
      el.style.display = "";
      el.style.transform = `translate(${at.x.toFixed(1)}px, ${at.y.toFixed(1)}px) translate(-50%, -100%)`;
    }
  }
}
