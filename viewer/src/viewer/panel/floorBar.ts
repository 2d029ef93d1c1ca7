// The floor bar: "All floors" and one button per floor, on one line whatever the number of floors. When the
// buttons do not fit with their words ("Floor 7"), they shrink to their codes after a caption ("Floor: All 0 1 … 8");
// when even those do not fit (a phone, a tower), the strip scrolls sideways (wheel, swipe or keys) and keeps the floor
// shown in view. It never wraps, so nothing below it (the side panel) has to move out of its way.

import { t } from "../strings";
import { tw } from "../wayfindStrings";
import { h, setText } from "./dom";

export class FloorBar {
  private readonly caption = h("span", { class: "sv-floors-caption", "aria-hidden": "true" });
  private readonly strip = h("div", { class: "sv-floors-strip", role: "group" });
  readonly el = h("div", { class: "sv-floors", "data-testid": "floor-bar" }, this.caption, this.strip);
  private buttons: { code: string | null; el: HTMLButtonElement }[] = [];
  private compact = false;
  private fitting = 0;

  constructor(private readonly choose: (code: string | null) => void) {
    new ResizeObserver(() => this.fitSoon()).observe(this.el);
    // a mouse wheel scrolls the strip sideways when it is too long
    this.strip.addEventListener("wheel", (e) => {
      if (this.strip.scrollWidth <= this.strip.clientWidth || Math.abs(e.deltaX) > Math.abs(e.deltaY)) return;
      e.preventDefault();
      this.strip.scrollLeft += e.deltaY;
    }, { passive: false });
  }

  /** One button per floor, and "All floors" (none when there is one floor). */
  setFloors(floors: string[]): void {
    this.strip.replaceChildren();
    this.buttons = [];
    if (floors.length > 1) {
      for (const code of [null, ...floors]) {
        const el = h("button", { type: "button", class: "sv-tool", "data-floor": code ?? "all", "aria-pressed": String(code === null) });
        el.addEventListener("click", () => this.choose(code));
        this.strip.append(el);
        this.buttons.push({ code, el });
      }
    }
    this.el.hidden = this.buttons.length === 0;
    this.compact = false;
    this.renderTexts();
    this.fitSoon();
  }

  setFloor(code: string | null): void {
    for (const b of this.buttons) b.el.setAttribute("aria-pressed", String(b.code === code));
    this.keepPressedInView();
  }

  renderTexts(): void {
    this.strip.setAttribute("aria-label", tw("floors"));
    setText(this.caption, tw("floorCaption"));
    for (const { el, code } of this.buttons) {
      const long = code === null ? t("allFloors") : t("floorN", { code });
      setText(el, this.compact ? (code === null ? tw("allShort") : code) : long);
      if (this.compact) el.setAttribute("aria-label", long);
      else el.removeAttribute("aria-label");
      el.title = this.compact ? long : "";
    }
    this.el.classList.toggle("sv-floors-compact", this.compact);
    this.caption.hidden = !this.compact;
  }

  private fitSoon(): void {
    if (!this.fitting) this.fitting = requestAnimationFrame(() => this.fit());
  }

  /** Words if they fit, else codes; the floor shown kept in view. */
  private fit(): void {
    this.fitting = 0;
    if (!this.buttons.length || !this.el.isConnected || this.el.clientWidth === 0) return;
    const overflows = () => this.strip.scrollWidth > this.strip.clientWidth + 1;
    if (this.compact) {
      this.compact = false; // would the words fit now (a wider window)?
      this.renderTexts();
    }
    if (overflows()) {
      this.compact = true;
      this.renderTexts();
    }
    this.keepPressedInView();
  }

  /** Scroll the strip (never the page) so that the floor shown is in view. */
  private keepPressedInView(): void {
    const pressed = this.buttons.find((b) => b.el.getAttribute("aria-pressed") === "true")?.el;
    if (!pressed || this.strip.scrollWidth <= this.strip.clientWidth) return;
    const left = pressed.offsetLeft; // the strip is the buttons' offset parent (position: relative)
    const right = left + pressed.offsetWidth;
    if (left < this.strip.scrollLeft) this.strip.scrollLeft = Math.max(0, left - 24);
    else if (right > this.strip.scrollLeft + this.strip.clientWidth) this.strip.scrollLeft = right - this.strip.clientWidth + 24;
  }
}
