// The viewer's DOM around the canvas: title bar (floors, reset), the side panel (prompt, countdown,
// candidate list, drill-down, Undo/Cancel/Confirm, messages), loading progress and the error card.
// Texts are kept as functions of the language, so a language switch re-renders every one of them.

import { h, setText } from "./dom";
import { t } from "./strings";

export interface Row {
  code: string;
  title: string;
  kind: "room" | "object";
  /** A room that can be looked inside (it has objects in this view). */
  drill: boolean;
}

export interface PanelEvents {
  toggle(code: string): void;
  confirm(): void;
  cancel(): void;
  undo(): void;
  drill(room: string): void;
  back(): void;
  frameItem(code: string): void;
  hoverRow(code: string | null): void;
  floor(code: string | null): void;
  reset(): void;
}

type Text = () => string;

export class Panel {
  readonly stage = h("div", { class: "sv-stage" });
  private readonly title = h("span", { class: "sv-title" });
  private readonly floors = h("div", { class: "sv-floors", role: "group" });
  private readonly resetButton = h("button", { type: "button", class: "sv-tool", "data-testid": "reset-view" });
  private readonly side = h("section", { class: "sv-panel" });
  private readonly prompt = h("p", { class: "sv-prompt", "data-testid": "prompt" });
  private readonly hint = h("span", { class: "sv-hint" });
  private readonly countdown = h("span", { class: "sv-countdown", "data-testid": "countdown" });
  private readonly listHeading = h("h2", { class: "sv-heading" });
  private readonly list = h("ul", { class: "sv-list" });
  private readonly drillBox = h("div", { class: "sv-drill", hidden: true });
  private readonly drillHeading = h("h3", { class: "sv-heading" });
  private readonly drillList = h("ul", { class: "sv-list sv-objects" });
  private readonly backButton = h("button", { type: "button", class: "sv-tool", "data-testid": "drill-back" });
  private readonly picked = h("p", { class: "sv-picked", "data-testid": "picked" });
  private readonly undoButton = h("button", { type: "button", "data-testid": "undo" });
  private readonly cancelButton = h("button", { type: "button", "data-testid": "cancel" });
  private readonly confirmButton = h("button", { type: "button", class: "sv-primary", "data-testid": "confirm" });
  private readonly actions = h("div", { class: "sv-actions" }, this.undoButton, this.cancelButton, this.confirmButton);
  private readonly message = h("p", { class: "sv-message", "data-testid": "message", role: "status", "aria-live": "polite" });
  private readonly keys = h("p", { class: "sv-keys" });
  private readonly status = h("div", { class: "sv-status" });
  private readonly progress = h("progress", { class: "sv-progress", "data-testid": "progress", max: "1", value: "0" });
  private readonly statusText = h("span", { class: "sv-status-text", "data-testid": "status" });
  private readonly help = h("span", { class: "sv-help" });
  private readonly errorCard = h("div", { class: "sv-error", role: "alert", hidden: true });
  private readonly errorTitle = h("h2");
  private readonly errorText = h("p", { "data-testid": "error" });
  private readonly reloadButton = h("button", { type: "button", class: "sv-primary" });

  private texts = new Map<string, Text>();
  private rows = new Map<string, { el: HTMLLIElement; row: Row; drill?: HTMLButtonElement }>();
  private floorButtons: { code: string | null; el: HTMLButtonElement }[] = [];
  private selectionMode = false;
  private busy: "sending" | "cancelling" | null = null;

  constructor(readonly root: HTMLElement, private readonly on: PanelEvents) {
    root.classList.add("sv-root");
    const top = h("div", { class: "sv-top" }, this.title, this.floors, this.resetButton);
    const meta = h("div", { class: "sv-meta" }, this.hint, this.countdown);
    const drillHead = h("div", { class: "sv-drill-head" }, this.drillHeading, this.backButton);
    this.drillBox.append(drillHead, this.drillList);
    this.side.append(this.prompt, meta, this.listHeading, this.list, this.drillBox, this.picked, this.actions, this.message, this.keys);
    this.status.append(this.progress, this.statusText, this.help);
    this.errorCard.append(this.errorTitle, this.errorText, this.reloadButton);
    root.append(this.stage, top, this.side, this.status, this.errorCard);

    this.resetButton.addEventListener("click", () => on.reset());
    this.backButton.addEventListener("click", () => on.back());
    this.undoButton.addEventListener("click", () => on.undo());
    this.cancelButton.addEventListener("click", () => on.cancel());
    this.confirmButton.addEventListener("click", () => on.confirm());
    this.reloadButton.addEventListener("click", () => window.location.reload());
    this.list.addEventListener("keydown", (e) => this.listKeys(e));
    this.list.addEventListener("mouseleave", () => on.hoverRow(null));
    this.drillList.addEventListener("mouseleave", () => on.hoverRow(null));
    this.renderTexts();
  }

  /** Set a text that follows the language. */
  private text(key: string, el: HTMLElement, value: Text | null): void {
    if (value) this.texts.set(key, value);
    else this.texts.delete(key);
    const text = value ? value() : "";
    setText(el, text);
    el.hidden = !text;
  }

  renderTexts(): void {
    this.root.setAttribute("aria-label", t("viewerLabel"));
    setText(this.resetButton, t("resetView"));
    setText(this.backButton, t("back"));
    setText(this.undoButton, t("undo"));
    setText(this.cancelButton, this.busy === "cancelling" ? t("cancelling") : t("cancel"));
    setText(this.confirmButton, this.busy === "sending" ? t("sending") : t("confirm"));
    setText(this.keys, t("keysHelp"));
    setText(this.help, t("help"));
    setText(this.errorTitle, t("errorTitle"));
    setText(this.reloadButton, t("retry"));
    this.list.setAttribute("aria-label", this.selectionMode ? t("candidatesLabel") : t("shown"));
    for (const { el, code } of this.floorButtons) setText(el, code === null ? t("allFloors") : t("floorN", { code }));
    for (const { drill, row } of this.rows.values()) {
      if (drill) drill.title = t("lookInsideRoom", { room: row.title });
      if (drill) setText(drill, t("lookInside"));
    }
    const targets: Record<string, HTMLElement> = {
      title: this.title, prompt: this.prompt, hint: this.hint, countdown: this.countdown, heading: this.listHeading,
      picked: this.picked, message: this.message, status: this.statusText, error: this.errorText, drill: this.drillHeading,
    };
    for (const [key, value] of this.texts) setText(targets[key], value());
  }

  /** A new view: the title, the floors, the rows of the list, and which mode the panel is in. */
  showView(title: Text, floors: string[], rows: Row[], selectionMode: boolean, heading: Text): void {
    this.selectionMode = selectionMode;
    this.root.dataset.mode = selectionMode ? "selection" : "view";
    this.text("title", this.title, title);
    this.text("heading", this.listHeading, heading);
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
    this.list.replaceChildren();
    this.rows.clear();
    if (selectionMode) {
      this.list.setAttribute("role", "listbox");
    } else {
      this.list.removeAttribute("role");
      this.list.removeAttribute("aria-multiselectable");
    }
    for (const row of rows) this.addRow(row);
    this.actions.hidden = !selectionMode;
    this.keys.hidden = !selectionMode;
    this.side.hidden = rows.length === 0 && !selectionMode;
    this.setDrill(null);
    this.showError(null);
    this.renderTexts();
  }

  private addRow(row: Row): void {
    const text = h("span", { class: "sv-row-text" }, row.title);
    const swatch = h("span", { class: "sv-swatch", "aria-hidden": "true" });
    const el = h("li", { class: `sv-row sv-row-${row.kind}`, tabindex: "0" }, swatch, text);
    if (this.selectionMode) {
      el.setAttribute("role", "option");
      el.dataset.code = row.code;
      el.setAttribute("aria-selected", "false");
      el.addEventListener("click", () => this.on.toggle(row.code));
    } else {
      el.dataset.item = row.code;
      el.addEventListener("click", () => this.on.frameItem(row.code));
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          this.on.frameItem(row.code);
        }
      });
    }
    el.addEventListener("mouseenter", () => this.on.hoverRow(row.code));
    el.addEventListener("focus", () => this.on.hoverRow(row.code));
    let drill: HTMLButtonElement | undefined;
    if (row.drill) {
      drill = h("button", { type: "button", class: "sv-drill-button", "data-testid": "drill", "data-room": row.code, tabindex: "-1" });
      drill.addEventListener("click", (e) => {
        e.stopPropagation();
        this.on.drill(row.code);
      });
      el.append(drill);
    }
    this.list.append(el);
    this.rows.set(row.code, { el, row, drill });
  }

  /** Arrow keys move between rows (Tab does too: every row is in the tab order); → looks inside a room. */
  private listKeys(e: KeyboardEvent): void {
    const rows = [...this.rows.values()].map((r) => r.el);
    const at = rows.indexOf(document.activeElement as HTMLLIElement);
    if (at < 0) return;
    const move = (to: number) => {
      e.preventDefault();
      rows[(to + rows.length) % rows.length].focus();
    };
    if (e.key === "ArrowDown") move(at + 1);
    else if (e.key === "ArrowUp") move(at - 1);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(rows.length - 1);
    else if (e.key === "ArrowRight") {
      const code = rows[at].dataset.code ?? rows[at].dataset.item;
      if (code && this.rows.get(code)?.drill) {
        e.preventDefault();
        this.on.drill(code);
      }
    }
  }

  /** Mirror the picks and the hovered candidate in the list. */
  setSelection(selected: ReadonlySet<string>, hovered: string | null, multiple: boolean): void {
    if (this.selectionMode) this.list.setAttribute("aria-multiselectable", String(multiple));
    for (const [code, { el }] of this.rows) {
      if (this.selectionMode) el.setAttribute("aria-selected", String(selected.has(code)));
      el.classList.toggle("sv-hovered", code === hovered);
    }
  }

  /** Move keyboard focus to the first candidate, unless the user is busy elsewhere on the page. */
  focusFirstRow(): void {
    const active = document.activeElement;
    if (active && active !== document.body && !this.root.contains(active)) return;
    this.rows.values().next().value?.el.focus({ preventScroll: true });
  }

  /** CSS pixels on the left of the viewer that the side panel covers (0 on narrow screens, where it floats). */
  insetLeft(): number {
    if (this.side.hidden || this.root.clientWidth < 700) return 0;
    return this.side.offsetLeft + this.side.offsetWidth;
  }

  setPrompt(prompt: Text | null, hint: Text | null): void {
    this.text("prompt", this.prompt, prompt);
    this.text("hint", this.hint, hint);
  }

  setCountdown(seconds: number | null): void {
    this.text("countdown", this.countdown, seconds === null ? null : () => t("secondsLeft", { seconds: Math.ceil(seconds) }));
    this.countdown.classList.toggle("sv-urgent", seconds !== null && seconds <= 10);
  }

  setPicked(text: Text | null): void {
    this.text("picked", this.picked, text);
  }

  /** Which buttons may be pressed; `busy` names the request in flight (its button says so). */
  setActions(enabled: { confirm: boolean; cancel: boolean; undo: boolean }, busy: "sending" | "cancelling" | null): void {
    this.busy = busy;
    this.confirmButton.disabled = !enabled.confirm;
    this.cancelButton.disabled = !enabled.cancel;
    this.undoButton.disabled = !enabled.undo;
    this.confirmButton.setAttribute("aria-busy", String(busy === "sending"));
    this.renderTexts();
  }

  setMessage(text: Text | null, tone: "info" | "ok" | "error" = "info"): void {
    this.text("message", this.message, text);
    this.message.dataset.tone = tone;
    this.message.setAttribute("role", tone === "error" ? "alert" : "status");
  }

  setStatus(text: Text | null, progress: number | null): void {
    this.text("status", this.statusText, text);
    this.progress.hidden = progress === null;
    if (progress !== null) this.progress.value = progress;
  }

  /** The room looked inside, with its objects; null = back to the whole view. */
  setDrill(drill: { title: Text; objects: Row[] } | null): void {
    this.drillBox.hidden = !drill;
    this.text("drill", this.drillHeading, drill ? drill.title : null);
    this.drillList.replaceChildren();
    for (const row of drill?.objects ?? []) {
      const text = h("span", { class: "sv-row-text" }, row.title);
      const el = h("li", { class: "sv-row sv-row-object", tabindex: "0", "data-object-code": row.code }, text);
      el.addEventListener("click", () => this.on.frameItem(row.code));
      el.addEventListener("mouseenter", () => this.on.hoverRow(row.code));
      el.addEventListener("focus", () => this.on.hoverRow(row.code));
      this.drillList.append(el);
    }
    if (drill && !drill.objects.length) this.drillList.append(h("li", { class: "sv-empty" }, t("noObjects")));
  }

  setFloor(code: string | null): void {
    for (const b of this.floorButtons) b.el.setAttribute("aria-pressed", String(b.code === code));
  }

  showError(text: Text | null): void {
    this.errorCard.hidden = !text;
    this.text("error", this.errorText, text);
  }
}
