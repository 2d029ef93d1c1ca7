// The candidate list of a pick (selection mode), drawn into the panel's listbox: rows grouped under a heading per
// room or floor (candidateRows.ts), each with a swatch of the candidate's own colour; a click on a row picks the
// candidate (and the app frames it); a "Show" button frames a group, or a candidate left out of the first framing
// (candidateFraming.ts), without picking. Above a long list a filter box narrows the rows by any words typed
// (room, flat, label, colour, code); the list itself scrolls (viewer.css), so the buttons below stay in sight.

import { h, setText } from "./dom";
import { matches, type CandidateGroup } from "./candidateRows";
import { t } from "../strings";

export interface CandidateListEvents {
  /** A row was clicked: pick the candidate. */
  pick(code: string): void;
  hover(code: string | null): void;
  focus(code: string): void;
  /** "Look inside" a room. */
  drill(room: string): void;
  /** "Show": frame these codes. */
  frame(codes: string[]): void;
}

// More rows than this get a filter box.
const FILTER_FROM_ROWS = 12;

interface Drawn {
  group: CandidateGroup;
  el: HTMLLIElement;
  title: HTMLElement;
  show: HTMLButtonElement | null;
  rows: { code: string; el: HTMLLIElement; text: HTMLElement; search: () => string; show: HTMLButtonElement | null }[];
}

/** A row's "Look inside" button (a room with objects): a click looks inside, and does not pick or frame the row. */
export function drillButton(room: string, drill: (room: string) => void): HTMLButtonElement {
  const button = h("button", { type: "button", class: "sv-drill-button", "data-testid": "drill", "data-room": room, tabindex: "-1" });
  button.addEventListener("click", (e) => {
    e.stopPropagation();
    drill(room);
  });
  return button;
}
export class CandidateList {
  /** The filter box: the panel puts it above the list. */
  readonly filterBox = h("div", { class: "sv-filter", hidden: true });
  private readonly input = h("input", { type: "search", class: "sv-filter-input", "data-testid": "candidate-filter", autocomplete: "off" });
  private readonly count = h("span", { class: "sv-filter-count", "data-testid": "filter-count" });
  private readonly none = h("li", { class: "sv-empty", role: "presentation", "data-testid": "no-match", hidden: true });
  private drawn: Drawn[] = [];
  private far = new Set<string>();

  constructor(private readonly list: HTMLUListElement, private readonly on: CandidateListEvents) {
    this.filterBox.append(this.input, this.count);
    this.input.addEventListener("input", () => this.filter());
  }

  /** Draw these groups into the list (emptied first); the rows' elements, by code, in list order. */
  show(groups: CandidateGroup[]): Map<string, { el: HTMLLIElement; drill?: HTMLButtonElement }> {
    const rows = new Map<string, { el: HTMLLIElement; drill?: HTMLButtonElement }>();
    const several = groups.length > 1;
    this.far.clear();
    this.drawn = groups.map((group) => {
      const title = h("span", { class: "sv-group-title" });
      // a group of one is shown by its row's own button (when it has one)
      const show = several && group.rows.length > 1 ? this.showButton(group.rows.map((r) => r.code), "show-group") : null;
      show?.setAttribute("data-show-group", group.key);
      const head = h("div", { class: "sv-group-head" }, title, ...(group.code ? [h("span", { class: "sv-code" }, group.code)] : []),
                     ...(show ? [show] : []));
      const members = h("ul", { class: "sv-group-rows", role: "group" });
      const el = h("li", { class: "sv-group", role: "presentation", "data-group": group.key }, head, members);
      const drawn: Drawn = { group, el, title, show, rows: [] };
      for (const row of group.rows) {
        const swatch = h("span", { class: "sv-swatch", "aria-hidden": "true", "data-testid": "swatch" });
        if (row.swatch) swatch.style.background = row.swatch;
        else swatch.classList.add("sv-swatch-none");
        const text = h("span", { class: "sv-row-text" });
        const li = h("li", { class: `sv-row sv-row-${row.kind}`, tabindex: "0", role: "option", "aria-selected": "false",
                             "data-code": row.code }, swatch, text);
        if (row.kind === "object") li.append(h("span", { class: "sv-code" }, row.code)); // a room's row starts with it
        const drill = row.drill ? drillButton(row.code, (room) => this.on.drill(room)) : undefined;
        if (drill) li.append(drill);
        li.addEventListener("click", () => this.on.pick(row.code));
        li.addEventListener("mouseenter", () => this.on.hover(row.code));
        li.addEventListener("focus", () => this.on.focus(row.code));
        members.append(li);
        drawn.rows.push({ code: row.code, el: li, text, search: row.search, show: null });
        rows.set(row.code, { el: li, drill });
      }
      this.list.append(el);
      return drawn;
    });
    this.list.append(this.none);
    this.input.value = "";
    this.filterBox.hidden = rows.size <= FILTER_FROM_ROWS;
    this.renderTexts();
    this.filter();
    return rows;
  }

  /** Not a pick: nothing drawn. */
  clear(): void {
    this.drawn = [];
    this.far.clear();
    this.filterBox.hidden = true;
  }

  /** Candidates left out of the first framing: each row gets a "Show" button (the others lose theirs). */
  setFar(codes: string[]): void {
    this.far = new Set(codes);
    for (const row of this.drawn.flatMap((d) => d.rows)) {
      if (this.far.has(row.code) && !row.show) {
        row.show = this.showButton([row.code], "show-candidate");
        row.show.dataset.show = row.code;
        row.el.append(row.show);
      } else if (!this.far.has(row.code) && row.show) {
        row.show.remove();
        row.show = null;
      }
    }
    this.renderTexts();
  }

  renderTexts(): void {
    this.input.placeholder = t("filterPlaceholder");
    this.input.setAttribute("aria-label", t("filterLabel"));
    for (const { group, title, show, rows, el } of this.drawn) {
      setText(title, group.title());
      el.querySelector(".sv-group-rows")?.setAttribute("aria-label", group.title());
      if (show) this.labelShow(show, t("showGroupTitle", { what: group.title() }));
      for (const row of rows) {
        setText(row.text, group.rows.find((r) => r.code === row.code)!.text());
        if (row.show) this.labelShow(row.show, t("showTitle", { what: `${row.code} (${row.text.textContent ?? ""})` }));
      }
    }
    this.filter();
  }

  private showButton(codes: string[], testid: string): HTMLButtonElement {
    const button = h("button", { type: "button", class: "sv-show", "data-testid": testid, tabindex: "-1" });
    button.addEventListener("click", (e) => {
      e.stopPropagation(); // frames only: the row's own click would pick it
      this.on.frame(codes);
    });
    return button;
  }

  private labelShow(button: HTMLButtonElement, title: string): void {
    setText(button, t("show"));
    button.title = title;
    button.setAttribute("aria-label", title);
  }

  /** Only the rows holding every word typed; groups with none left are hidden. */
  private filter(): void {
    const typed = this.input.value.trim();
    let shown = 0;
    let total = 0;
    for (const drawn of this.drawn) {
      let any = false;
      for (const row of drawn.rows) {
        row.el.hidden = !!typed && !matches(row.search(), typed);
        any ||= !row.el.hidden;
        shown += row.el.hidden ? 0 : 1;
        total += 1;
      }
      drawn.el.hidden = !any;
    }
    this.none.hidden = shown > 0 || !typed;
    setText(this.none, typed ? t("noMatch", { words: typed }) : "");
    setText(this.count, typed ? t("matching", { shown, total }) : "");
  }
}
