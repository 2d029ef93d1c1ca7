// The viewer's title bar: the title (what is shown), "Whole scene" (always there: the way back from a floor,
// a room, a view or a pick), "Reset view", and the floor bar on a line of its own (floorBar.ts). Other controls may
// join it (viewer.css puts each in its place: the title shrinks, the first line never wraps on a desktop).

import { h, setText } from "./dom";
import { FloorBar } from "./floorBar";
import { t } from "../strings";

type Text = () => string;

export class TopBar {
  private readonly title = h("span", { class: "sv-title", "data-testid": "view-title" });
  private readonly wholeSceneButton = h("button", { type: "button", class: "sv-tool", "data-testid": "whole-scene" });
  private readonly floors: FloorBar;
  private readonly resetButton = h("button", { type: "button", class: "sv-tool", "data-testid": "reset-view" });
  readonly el = h("div", { class: "sv-top" }, this.title, this.wholeSceneButton, this.resetButton);
  private titleText: Text = () => "";

  constructor(on: { wholeScene(): void; floor(code: string | null): void; reset(): void }) {
    this.floors = new FloorBar((code) => on.floor(code));
    this.el.append(this.floors.el);
    this.wholeSceneButton.addEventListener("click", () => on.wholeScene());
    this.resetButton.addEventListener("click", () => on.reset());
  }

  renderTexts(): void {
    setText(this.title, this.titleText());
    this.title.hidden = !this.title.textContent;
    setText(this.wholeSceneButton, t("wholeScene"));
    setText(this.resetButton, t("resetView"));
    this.floors.renderTexts();
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
    this.floors.setFloors(floors);
    this.renderTexts();
  }

  setFloor(code: string | null): void {
    this.floors.setFloor(code);
  }
}
