// The viewer's title bar: the title (what is shown), "Whole scene" (always there: the way back from a floor,
// a room, a view or a pick), the floor buttons and "Reset view". Other controls may join it (it wraps).

import { h, setText } from "./dom";
import { t } from "../strings";

type Text = () => string;

export class TopBar {
  private readonly title = h("span", { class: "sv-title", "data-testid": "view-title" });
  private readonly wholeSceneButton = h("button", { type: "button", class: "sv-tool", "data-testid": "whole-scene" });
  private readonly floors = h("div", { class: "sv-floors", role: "group" });
  private readonly resetButton = h("button", { type: "button", class: "sv-tool", "data-testid": "reset-view" });
  readonly el = h("div", { class: "sv-top" }, this.title, this.wholeSceneButton, this.floors, this.resetButton);
  private floorButtons: { code: string | null; el: HTMLButtonElement }[] = [];
  private titleText: Text = () => "";

  constructor(private readonly on: { wholeScene(): void; floor(code: string | null): void; reset(): void }) {
    this.wholeSceneButton.addEventListener("click", () => on.wholeScene());
    this.resetButton.addEventListener("click", () => on.reset());
  }

  renderTexts(): void {
    setText(this.title, this.titleText());
    this.title.hidden = !this.title.textContent;
    setText(this.wholeSceneButton, t("wholeScene"));
    setText(this.resetButton, t("resetView"));
    for (const { el, code } of this.floorButtons) setText(el, code === null ? t("allFloors") : t("floorN", { code }));
  }

  /** The title says what is shown (the whole scene, a floor, a room looked inside, a view, a pick). */
  setTitle(title: Text): void {
    this.titleText = title;
    this.renderTexts();
  }

  /** Whether the whole scene, all floors, is what is shown (its button then says so). */
  setAtWholeScene(at: boolean): void {
    if (at) this.wholeSceneButton.setAttribute("aria-current", "page");
    else this.wholeSceneButton.removeAttribute("aria-current");
  }

  /** One button per floor, and "All floors" (none when there is one floor). */
  setFloors(floors: string[]): void {
    this.floors.replaceChildren();
    this.floorButtons = [];
    if (floors.length > 1) {
      for (const code of [null, ...floors]) {
        const el = h("button", { type: "button", class: "sv-tool", "data-floor": code ?? "all", "aria-pressed": String(code === null) });
        el.addEventListener("click", () => this.on.floor(code));
        this.floors.append(el);
        this.floorButtons.push({ code, el });
      }
    }
    this.renderTexts();
  }

  setFloor(code: string | null): void {
    for (const b of this.floorButtons) b.el.setAttribute("aria-pressed", String(b.code === code));
  }
}
