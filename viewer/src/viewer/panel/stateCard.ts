// The card in the middle of the viewer when there is nothing to show or pick: a broken or unknown link, a
// selection that ended before the page opened, a server that does not answer (retried meanwhile). One title,
// one sentence saying what happened, a link to the whole scene, and Reload where trying again may help.

import { h, setText } from "./dom";
import { t } from "../strings";

/** Why the card is shown: it names the card's look (CSS `[data-card]` on the viewer root hides the side panel). */
export type CardKind = "error" | "expired" | "cancelled" | "offline";

type Text = () => string;

const TITLES: Record<CardKind, "errorTitle" | "endedTitle" | "offlineTitle"> = {
  error: "errorTitle", expired: "endedTitle", cancelled: "endedTitle", offline: "offlineTitle",
};

export class StateCard {
  readonly el = h("div", { class: "sv-error", role: "alert", hidden: true, "data-testid": "state-card" });
  private readonly title = h("h2");
  private readonly text = h("p", { "data-testid": "error" });
  private readonly wholeScene = h("a", { class: "sv-link", "data-testid": "state-whole-scene", href: "/" });
  private readonly reloadButton = h("button", { type: "button", class: "sv-primary" });
  private kind: CardKind | null = null;
  private message: Text | null = null;
  private reloadable = false;

  /** `toWholeScene` goes to the whole scene in place; `href` gives the link's address (for a new tab); `reload` is
   *  what Reload does. */
  constructor(private readonly root: HTMLElement, toWholeScene: () => void, private readonly href: () => string,
              reload: () => void) {
    this.el.append(this.title, this.text, h("div", { class: "sv-error-actions" }, this.wholeScene, this.reloadButton));
    this.wholeScene.addEventListener("click", (e) => {
      if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return; // a new tab or window: the browser's
      e.preventDefault();
      toWholeScene();
    });
    this.reloadButton.addEventListener("click", () => reload());
  }

  get shown(): CardKind | null {
    return this.kind;
  }

  /** `reload`: whether Reload is offered (an error that trying again may mend). */
  show(kind: CardKind, message: Text, reload = kind === "error"): void {
    this.kind = kind;
    this.reloadable = reload;
    this.message = message;
    this.el.hidden = false;
    this.el.dataset.kind = kind;
    this.el.setAttribute("role", kind === "error" ? "alert" : "status");
    this.root.dataset.card = kind;
    this.render();
  }

  hide(): void {
    this.kind = this.message = null;
    this.el.hidden = true;
    delete this.root.dataset.card;
  }

  render(): void {
    if (!this.kind || !this.message) return;
    setText(this.title, t(TITLES[this.kind]));
    setText(this.text, this.message());
    setText(this.wholeScene, t("toWholeScene"));
    this.wholeScene.href = this.href();
    setText(this.reloadButton, t("retry"));
    this.reloadButton.hidden = !this.reloadable; // offline retries by itself; an ended pick or a broken link will not mend
  }
}
