// The clip box's controls in the View panel, under "Cut above": "Around the room" (the room looked inside, or the
// rooms of what was framed, or the floor shown), "Reset", and its six limits to type (folded under "Limits": a limit
// left empty is open).
// What the box hides is the stage's (stage/clipBox.ts); the box itself is the app's state (store.clipBox).

import type { ClipBox } from "../stage/clipBox";
import { tw } from "../wayfindStrings";
import { h, setText } from "./dom";

export interface ClipControlsEvents {
  /** The box around the room or what is shown now, or null when there is nothing to put one around. */
  around(): ClipBox | null;
  /** The user set the box (null: none). */
  changed(box: ClipBox | null): void;
}

const AXES = ["x", "y", "z"] as const;

export class ClipControls {
  private readonly caption = h("span", { class: "svc-caption" });
  private readonly value = h("output", { class: "svc-value", "data-testid": "clip-value" });
  private readonly aroundButton = h("button", { type: "button", class: "sv-tool", "data-testid": "clip-around" });
  private readonly resetButton = h("button", { type: "button", class: "sv-tool", "data-testid": "clip-reset" });
  private readonly limitsText = h("summary", { class: "svc-caption" });
  private readonly inputs = AXES.map((axis) => ["min", "max"].map((end) =>
    h("input", { type: "number", step: "0.1", class: "svc-clip-input", "data-testid": `clip-${axis}-${end}` })));
  readonly element: HTMLElement;

  constructor(private readonly on: ClipControlsEvents) {
    const grid = h("div", { class: "svc-clip-grid" },
      ...AXES.flatMap((axis, k) => [h("span", { class: "svc-caption" }, axis), this.inputs[k][0], this.inputs[k][1]]));
    this.element = h("div", { class: "svc-clip", role: "group", "data-testid": "clip-box" },
      h("div", { class: "svc-field-head" }, this.caption, this.value),
      h("div", { class: "svc-clip-actions" }, this.aroundButton, this.resetButton),
      h("details", { class: "svc-clip-limits", "data-testid": "clip-limits" }, this.limitsText, grid));
    this.aroundButton.addEventListener("click", () => {
      const box = on.around();
      if (box) this.set(box, true);
    });
    this.resetButton.addEventListener("click", () => this.set(null, true));
    for (const input of this.inputs.flat()) input.addEventListener("change", () => this.typed());
    this.renderTexts();
  }

  renderTexts(): void {
    setText(this.caption, tw("clipBox"));
    this.element.setAttribute("aria-label", tw("clipBox"));
    setText(this.aroundButton, tw("clipAround"));
    this.aroundButton.title = tw("clipAroundTitle");
    setText(this.resetButton, tw("clipReset"));
    setText(this.limitsText, tw("clipLimits"));
    AXES.forEach((axis, k) => {
      this.inputs[k][0].setAttribute("aria-label", tw("clipFrom", { axis }));
      this.inputs[k][1].setAttribute("aria-label", tw("clipTo", { axis }));
    });
    this.showValue();
  }

  /** Show `box` in the fields (null: all empty); `tell` when the user set it here. */
  set(box: ClipBox | null, tell = false): void {
    AXES.forEach((_, k) => {
      this.inputs[k][0].value = box && Number.isFinite(box.min[k]) ? box.min[k].toFixed(2) : "";
      this.inputs[k][1].value = box && Number.isFinite(box.max[k]) ? box.max[k].toFixed(2) : "";
    });
    this.showValue();
    if (tell) this.on.changed(box);
  }

  /** The box the fields say: an empty field is an open side; none at all is no box. */
  private typed(): void {
    const read = (input: HTMLInputElement, open: number) => (input.value.trim() === "" || !Number.isFinite(Number(input.value)) ? open : Number(input.value));
    const min = AXES.map((_, k) => read(this.inputs[k][0], -Infinity)) as ClipBox["min"];
    const max = AXES.map((_, k) => read(this.inputs[k][1], Infinity)) as ClipBox["max"];
    const none = min.every((v) => v === -Infinity) && max.every((v) => v === Infinity);
    this.showValue();
    this.on.changed(none ? null : { min, max });
  }

  private showValue(): void {
    const on = this.inputs.flat().some((input) => input.value.trim() !== "");
    setText(this.value, on ? tw("clipOn") : tw("clipOff"));
    this.resetButton.disabled = !on;
  }
}
