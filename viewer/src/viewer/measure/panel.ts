// The measuring tools' DOM, over the canvas' bottom right: three buttons (distance, height, area; pressed while in
// use) and above them a small panel that says what to click next and lists the measurements made, with "Close
// shape" for an area (a phone has no double-click or Enter) and "Clear".

import "./measure.css";
import { h, setText } from "../panel/dom";
import { t, type StringKey } from "../strings";
import type { MeasureKind } from "./geometry";

const TOOLS: { kind: MeasureKind; testid: string; icon: string; label: StringKey; title: StringKey }[] = [
  { kind: "distance", testid: "measure", icon: "↔", label: "measureDistance", title: "measureDistanceTitle" },
  { kind: "height", testid: "measure-height", icon: "↕", label: "measureHeight", title: "measureHeightTitle" },
  { kind: "area", testid: "measure-area", icon: "▱", label: "measureArea", title: "measureAreaTitle" },
];

export class MeasureToolbar {
  readonly el = h("div", { class: "svm-tools", role: "group", "data-testid": "measure-tools" });
  private readonly buttons: { kind: MeasureKind; el: HTMLButtonElement; text: HTMLElement }[];

  constructor(choose: (kind: MeasureKind) => void) {
    this.buttons = TOOLS.map(({ kind, testid, icon }) => {
      const text = h("span", { class: "svm-tool-text" });
      const el = h("button", { type: "button", class: "sv-tool svm-tool", "data-testid": testid, "aria-pressed": "false" },
                   h("span", { class: "svm-icon", "aria-hidden": "true" }, icon), text);
      el.addEventListener("click", () => choose(kind));
      this.el.append(el);
      return { kind, el, text };
    });
    this.renderTexts();
  }

  setActive(kind: MeasureKind | null): void {
    for (const b of this.buttons) b.el.setAttribute("aria-pressed", String(b.kind === kind));
  }

  renderTexts(): void {
    this.el.setAttribute("aria-label", t("measureTools"));
    this.buttons.forEach((b, k) => {
      setText(b.text, t(TOOLS[k].label));
      b.el.title = t(TOOLS[k].title);
      b.el.setAttribute("aria-label", t(TOOLS[k].label));
    });
  }
}

/** What the panel shows: the tool in use, what to do next, the measurements made (newest last). */
export interface MeasurePanelView {
  tool: MeasureKind;
  hint: string;
  rows: { kind: MeasureKind; text: string }[];
  canClose: boolean;
}

export class MeasurePanel {
  readonly el = h("section", { class: "svm-panel", "data-testid": "measure-panel", hidden: true });
  private readonly heading = h("h3", { class: "svm-heading", "data-testid": "measure-heading" });
  private readonly hint = h("p", { class: "svm-hint", "data-testid": "measure-hint", role: "status", "aria-live": "polite" });
  private readonly list = h("ol", { class: "svm-list", "data-testid": "measure-list" });
  private readonly closeButton = h("button", { type: "button", class: "sv-tool", "data-testid": "measure-close-shape" });
  private readonly clearButton = h("button", { type: "button", class: "sv-tool", "data-testid": "measure-clear" });

  constructor(on: { closeShape(): void; clear(): void }) {
    this.el.append(this.heading, this.hint, this.list, h("div", { class: "svm-actions" }, this.closeButton, this.clearButton));
    this.closeButton.addEventListener("click", () => on.closeShape());
    this.clearButton.addEventListener("click", () => on.clear());
  }

  /** Shown with `view`, or hidden (null: no tool in use). */
  render(view: MeasurePanelView | null): void {
    this.el.hidden = !view;
    if (!view) return;
    const heading: Record<MeasureKind, StringKey> = { distance: "measureDistanceHeading", height: "measureHeightHeading",
                                                       area: "measureAreaHeading" };
    setText(this.heading, t(heading[view.tool]));
    this.el.dataset.tool = view.tool;
    setText(this.hint, view.hint);
    this.list.replaceChildren(...view.rows.map((row) => h("li", { class: "svm-row", "data-kind": row.kind }, row.text)));
    this.list.hidden = view.rows.length === 0;
    setText(this.closeButton, t("measureCloseShape"));
    this.closeButton.hidden = view.tool !== "area";
    this.closeButton.disabled = !view.canClose;
    setText(this.clearButton, t("measureClear"));
    this.clearButton.disabled = view.rows.length === 0;
  }
}
