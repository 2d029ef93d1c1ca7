// The viewer's DOM around the canvas: the title bar (topBar.ts), the side panel (prompt, countdown and More
// time, candidate list (a pick's: candidateList.ts), drill-down, Undo/Cancel/Confirm, the Escape question, messages) — a bottom sheet on a
// phone (viewer.css) — loading progress and the state card (stateCard.ts).
// Texts are kept as functions of the language, so a language switch re-renders every one of them.

import { CandidateList, drillButton } from "./candidateList";
import type { CandidateGroup } from "./candidateRows";
import { h, setText } from "./dom";
import { listKey } from "./listKeys";
import { appendSections } from "./roomList";
import { StateCard, type CardKind } from "./stateCard";
import { t } from "../strings";
import { TopBar } from "./topBar";

export interface Row {
  code: string;
  /** "0-3 · Kitchen", in the language shown. */
  title: Text;
  kind: "room" | "object";
  /** A room that can be looked inside (it has objects in this view). */
  drill: boolean;
  /** Its floor, and a room's name ("Kitchen, flat 2B"): the list of rooms is shown by floor and unit (roomList.ts). */
  floor?: string;
  name?: string | null;
}

export interface PanelEvents {
  /** A candidate's row was clicked: pick it, and frame it if it is not in sight. */
  pickRow(code: string): void;
  /** A "Show" button: frame these codes. */
  frameCodes(codes: string[]): void;
  confirm(): void;
  cancel(): void;
  undo(): void;
  drill(room: string): void;
  back(): void;
  frameItem(code: string): void;
  hoverRow(code: string | null): void;
  floor(code: string | null): void;
  reset(): void;
  wholeScene(): void;
  /** The address of the whole scene (for its link). */
  wholeSceneHref(): string;
  /** The state card's Reload: the page again (or, when that would lose what the page was given, the view). */
  reload(): void;
  moreTime(): void;
  /** The Escape question's answers: cancel the pick, or keep picking. */
  escapeYes(): void;
  escapeNo(): void;
}

// Keys that move the focus: once one is pressed, focused rows show a focus ring (not before: the first candidate
// gets the focus when a pick opens, and a ring nobody asked for reads as a pick).
const NAVIGATION_KEYS = new Set(["Tab", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", " "]);

type Text = () => string;

export class Panel {
  readonly stage = h("div", { class: "sv-stage" });
  private readonly side = h("section", { class: "sv-panel", "data-testid": "panel" });
  private readonly sheetToggle = h("button", { type: "button", class: "sv-sheet-toggle", "data-testid": "sheet-toggle", "aria-expanded": "false" });
  private readonly sheetLabel = h("span", { class: "sv-sheet-label" });
  private readonly sheetHint = h("span", { class: "sv-sheet-hint" });
  private readonly prompt = h("p", { class: "sv-prompt", "data-testid": "prompt" });
  private readonly hint = h("span", { class: "sv-hint" });
  private readonly countdown = h("span", { class: "sv-countdown", "data-testid": "countdown" });
  private readonly moreTimeButton = h("button", { type: "button", class: "sv-tool sv-more-time", "data-testid": "more-time", hidden: true });
  private readonly escStrip = h("div", { class: "sv-esc", "data-testid": "escape-question", role: "alertdialog", hidden: true });
  private readonly escText = h("span", { class: "sv-esc-text" });
  private readonly escNo = h("button", { type: "button", "data-testid": "escape-no" });
  private readonly escYes = h("button", { type: "button", class: "sv-danger", "data-testid": "escape-yes" });
  private readonly listHeading = h("h2", { class: "sv-heading" });
  private readonly list = h("ul", { class: "sv-list" });
  /** A pick's candidates, grouped; those left out of the first framing (candidateFraming.ts) offer "Show" (setFar). */
  readonly candidateList: CandidateList;
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
  readonly card: StateCard;

  private texts = new Map<string, Text>();
  private rows = new Map<string, { el: HTMLLIElement; row: Row; drill?: HTMLButtonElement }>();
  /** Every row of the view; a view-only list of rooms shows those of the floor shown, by unit (roomList.ts). */
  private allRows: Row[] = [];
  private readonly rowTexts = new Map<HTMLElement, Text>();
  private grouped = false;
  private floor: string | null = null;
  private headings: { el: HTMLElement; text: Text }[] = [];
  private selectionMode = false;
  private busy: "sending" | "cancelling" | null = null;
  /** The title bar: other controls may join it (`bar.el`; it wraps on a narrow screen). */
  readonly bar: TopBar;

  constructor(readonly root: HTMLElement, private readonly on: PanelEvents) {
    root.classList.add("sv-root");
    this.card = new StateCard(root, () => on.wholeScene(), () => on.wholeSceneHref(), () => on.reload());
    this.bar = new TopBar(on);
    this.candidateList = new CandidateList(this.list, {
      pick: (code) => on.pickRow(code), hover: (code) => on.hoverRow(code), focus: (code) => this.focusRow(code),
      drill: (room) => on.drill(room), frame: (codes) => on.frameCodes(codes),
    });
    const countdown = h("span", { class: "sv-clock" }, this.countdown, this.moreTimeButton);
    const meta = h("div", { class: "sv-meta" }, this.hint, countdown);
    const drillHead = h("div", { class: "sv-drill-head" }, this.drillHeading, this.backButton);
    this.drillBox.append(drillHead, this.drillList);
    this.sheetToggle.append(this.sheetLabel, this.sheetHint);
    this.escStrip.append(this.escText, h("span", { class: "sv-esc-buttons" }, this.escNo, this.escYes));
    this.side.append(this.sheetToggle, this.prompt, meta, this.escStrip, this.listHeading, this.candidateList.filterBox, this.list,
                     this.drillBox, this.picked,
                     this.actions, this.message, this.keys);
    this.status.append(this.progress, this.statusText, this.help);
    root.append(this.stage, this.bar.el, this.side, this.status, this.card.el);

    this.sheetToggle.addEventListener("click", () => this.setSheet(!this.side.classList.contains("sv-expanded")));
    this.moreTimeButton.addEventListener("click", () => on.moreTime());
    this.escYes.addEventListener("click", () => on.escapeYes());
    this.escNo.addEventListener("click", () => on.escapeNo());
    document.addEventListener("keydown", (e) => {
      if (NAVIGATION_KEYS.has(e.key)) root.classList.add("sv-keyboard");
    }, true);
    document.addEventListener("pointerdown", () => root.classList.remove("sv-keyboard"), true);
    this.backButton.addEventListener("click", () => on.back());
    this.undoButton.addEventListener("click", () => on.undo());
    this.cancelButton.addEventListener("click", () => on.cancel());
    this.confirmButton.addEventListener("click", () => on.confirm());
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
    setText(this.backButton, t("back"));
    setText(this.undoButton, t("undo"));
    setText(this.cancelButton, this.busy === "cancelling" ? t("cancelling") : t("cancel"));
    setText(this.confirmButton, this.busy === "sending" ? t("sending") : t("confirm"));
    setText(this.keys, t("keysHelp"));
    setText(this.help, t("help"));
    this.bar.renderTexts();
    setText(this.moreTimeButton, t("moreTime"));
    this.moreTimeButton.title = t("moreTimeTitle");
    setText(this.escText, t("escAsk"));
    setText(this.escYes, t("escYes"));
    setText(this.escNo, t("escNo"));
    setText(this.sheetHint, t(this.side.classList.contains("sv-expanded") ? "sheetClose" : "sheetOpen"));
    this.card.render();
    this.list.setAttribute("aria-label", this.selectionMode ? t("candidatesLabel") : t("shown"));
    this.candidateList.renderTexts();
    for (const [el, text] of this.rowTexts) {
      if (el.isConnected) setText(el, text());
      else this.rowTexts.delete(el); // a row of a list shown before
    }
    for (const { drill, row } of this.rows.values()) {
      if (drill) drill.title = t("lookInsideRoom", { room: row.title() });
      if (drill) setText(drill, t("lookInside"));
    }
    const targets: Record<string, HTMLElement> = {
      prompt: this.prompt, hint: this.hint, countdown: this.countdown, heading: this.listHeading,
      picked: this.picked, message: this.message, status: this.statusText, drill: this.drillHeading,
    };
    for (const [key, value] of this.texts) setText(targets[key], value());
    for (const { el, text } of this.headings) setText(el, text());
    setText(this.sheetLabel, `${this.listHeading.textContent ?? ""} (${this.rows.size})`);
  }


  /** The side panel as a bottom sheet (phones): collapsed, it shows the prompt, the clock and the buttons. */
  setSheet(expanded: boolean): void {
    this.side.classList.toggle("sv-expanded", expanded);
    this.sheetToggle.setAttribute("aria-expanded", String(expanded));
    setText(this.sheetHint, t(expanded ? "sheetClose" : "sheetOpen"));
  }

  /** A new view: the title, the floors, the rows of the list (a pick's: its candidates' groups), and which mode the panel is in. */
  showView(title: Text, floors: string[], rows: Row[], selectionMode: boolean, heading: Text, groups: CandidateGroup[] = []): void {
    this.selectionMode = selectionMode;
    this.root.dataset.mode = selectionMode ? "selection" : "view";
    this.bar.setTitle(title);
    this.bar.setFloors(floors);
    this.text("heading", this.listHeading, heading);
    this.setSheet(false);
    this.askEscape(false);
    this.allRows = rows;
    this.grouped = !selectionMode && rows.length > 0 && rows.every((row) => row.kind === "room");
    this.floor = null;
    if (selectionMode) {
      this.list.setAttribute("role", "listbox");
    } else {
      this.list.removeAttribute("role");
      this.list.removeAttribute("aria-multiselectable");
    }
    if (selectionMode) {
      for (const [code, { el, drill }] of this.candidateList.show(groups)) {
        const kind = el.classList.contains("sv-row-room") ? "room" : "object";
        this.rows.set(code, { el, drill, row: { code, title: () => el.textContent ?? code, kind, drill: !!drill } });
      }
    } else {
      this.candidateList.clear();
      this.renderList();
    }
    this.actions.hidden = !selectionMode;
    this.keys.hidden = !selectionMode;
    this.side.hidden = rows.length === 0 && !selectionMode;
    this.setDrill(null);
    this.card.hide();
    this.renderTexts();
  }

  /** The rows shown now: all of them, or the rooms of the floor shown under their floor's and unit's headings. */
  private renderList(): void {
    this.list.replaceChildren();
    this.rows.clear();
    this.headings = appendSections(this.list, this.grouped ? this.floor : undefined, this.allRows, (row) => this.addRow(row));
  }

  private addRow(row: Row): void {
    const text = this.rowText(row.title);
    const swatch = h("span", { class: "sv-swatch", "aria-hidden": "true" });
    const el = h("li", { class: `sv-row sv-row-${row.kind}`, tabindex: "0", "data-item": row.code }, swatch, text);
    el.addEventListener("click", () => this.on.frameItem(row.code));
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        this.on.frameItem(row.code);
      }
    });
    el.addEventListener("mouseenter", () => this.on.hoverRow(row.code));
    el.addEventListener("focus", () => this.focusRow(row.code));
    const drill = row.drill ? drillButton(row.code, (room) => this.on.drill(room)) : undefined;
    if (drill) el.append(drill);
    this.list.append(el);
    this.rows.set(row.code, { el, row, drill });
  }

  /** A list row's words, which follow the language. */
  private rowText(title: Text): HTMLElement {
    const el = h("span", { class: "sv-row-text" }, title());
    this.rowTexts.set(el, title);
    return el;
  }

  /** Arrow keys move between rows (Tab does too: every row is in the tab order); → looks inside a room. */
  private listKeys(e: KeyboardEvent): void {
    const shown = [...this.rows.values()].map((r) => r.el).filter((el) => !el.hidden); // the filter's rows
    listKey(e, shown, (code) => !!this.rows.get(code)?.drill && (this.on.drill(code), true));
  }

  /** Mirror the picks and the hovered candidate in the list. */
  setSelection(selected: ReadonlySet<string>, hovered: string | null, multiple: boolean): void {
    if (this.selectionMode) this.list.setAttribute("aria-multiselectable", String(multiple));
    for (const [code, { el }] of this.rows) {
      if (this.selectionMode) el.setAttribute("aria-selected", String(selected.has(code)));
      el.classList.toggle("sv-hovered", code === hovered);
    }
  }

  /** A row got the focus: it is highlighted on the canvas too, once the keyboard is in use (not for the focus a
   *  pick opens with). */
  private focusRow(code: string): void {
    if (this.root.classList.contains("sv-keyboard")) this.on.hoverRow(code);
  }

  /** Move keyboard focus to the first candidate, unless the user is busy elsewhere on the page. */
  focusFirstRow(): void {
    const active = document.activeElement;
    if (active && active !== document.body && !this.root.contains(active)) return;
    this.rows.values().next().value?.el.focus({ preventScroll: true });
  }

  /** CSS pixels on the left of the viewer that the side panel covers (0 when it is a bottom sheet beside the canvas). */
  insetLeft(): number {
    if (this.side.hidden || this.card.shown || getComputedStyle(this.side).position !== "absolute") return 0;
    return this.side.offsetLeft + this.side.offsetWidth;
  }

  setPrompt(prompt: Text | null, hint: Text | null): void {
    this.text("prompt", this.prompt, prompt);
    this.text("hint", this.hint, hint);
  }

  setCountdown(seconds: number | null): void {
    this.text("countdown", this.countdown, seconds === null ? null : () => t("secondsLeft", { seconds: Math.ceil(seconds) }));
    this.countdown.classList.toggle("sv-urgent", seconds !== null && seconds <= 10);
    this.moreTimeButton.hidden = seconds === null;
  }

  /** "More time": pressable while the session is open and no request for it is on its way. */
  setMoreTime(enabled: boolean, busy: boolean): void {
    this.moreTimeButton.disabled = !enabled || busy;
    this.moreTimeButton.setAttribute("aria-busy", String(busy));
  }

  /** The Escape question ("Cancel this pick?") shown, or gone. */
  askEscape(shown: boolean): void {
    this.escStrip.hidden = !shown;
    if (shown) this.escNo.focus({ preventScroll: true });
  }

  get escapeAsked(): boolean {
    return !this.escStrip.hidden;
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
      const text = this.rowText(row.title);
      const el = h("li", { class: "sv-row sv-row-object", tabindex: "0", "data-object-code": row.code }, text);
      el.addEventListener("click", () => this.on.frameItem(row.code));
      el.addEventListener("mouseenter", () => this.on.hoverRow(row.code));
      el.addEventListener("focus", () => this.on.hoverRow(row.code));
      this.drillList.append(el);
    }
    if (drill && !drill.objects.length) this.drillList.append(h("li", { class: "sv-empty" }, t("noObjects")));
  }

  setFloor(code: string | null): void {
    this.bar.setFloor(code);
    if (code === this.floor) return;
    this.floor = code;
    if (!this.grouped) return;
    this.renderList();
    this.renderTexts();
  }

  /** Nothing shown yet: a view of `target` is being opened. */
  clear(selectionMode: boolean, prompt: Text | null, status: Text): void {
    this.showView(() => "", [], [], selectionMode, () => t("candidates"));
    this.setPrompt(prompt, null);
    this.setCountdown(null);
    this.setPicked(null);
    this.setMessage(null);
    this.setActions({ confirm: false, cancel: false, undo: false }, null);
    this.setStatus(status, 0);
    this.showCard(null);
  }

  /** The state card instead of the panel (null: gone). */
  showCard(kind: CardKind | null, text: Text | null = null, reload?: boolean): void {
    if (kind && text) this.card.show(kind, text, reload);
    else this.card.hide();
  }
}
