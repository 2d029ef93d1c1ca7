// The search box in the title bar: type, and the rooms and objects found are listed under it (navigation/search.ts
// finds them); choosing one shows it (the app frames it on its floor). A combobox for the keyboard: "/" anywhere in
// the viewer focuses it (navigation/keys.ts), ↑/↓ move through the results, Enter opens one, Escape closes them.

import { getLang, hasChinese, langOf } from "../../i18n";
import { search, type SearchEntry, type SearchHit } from "../navigation/search";
import { tw } from "../wayfindStrings";
import { h } from "./dom";

export interface SearchBoxEvents {
  /** What is searched (the view's rooms and objects); the names are asked for when a search first needs them. */
  entries(): SearchEntry[];
  needNames(): void;
  /** A result was chosen. */
  open(code: string): void;
}

const SHOWN_MAX = 40;

export class SearchBox {
  readonly input = h("input", {
    type: "search", class: "sv-search-input", "data-testid": "search", role: "combobox", autocomplete: "off",
    spellcheck: "false", "aria-autocomplete": "list", "aria-expanded": "false", "aria-controls": "sv-search-results",
  });
  // a listbox while it is open (closed, it is nothing: the viewer's own listbox is the candidates')
  private readonly list = h("ul", { class: "sv-search-results", id: "sv-search-results", "data-testid": "search-results", hidden: true });
  readonly element = h("div", { class: "sv-search", role: "search" }, this.input, this.list);
  private hits: SearchHit[] = [];
  private active = -1;

  constructor(private readonly on: SearchBoxEvents) {
    this.input.addEventListener("input", () => this.refresh());
    this.input.addEventListener("focus", () => {
      on.needNames();
      if (this.input.value) this.refresh();
    });
    this.input.addEventListener("keydown", (e) => this.keys(e));
    // a click elsewhere closes the results (a click on one opens it first: pointerdown comes before the blur)
    document.addEventListener("pointerdown", (e) => {
      if (!this.element.contains(e.target as Node)) this.close();
    }, true);
    this.renderTexts();
  }

  renderTexts(): void {
    this.input.placeholder = tw("searchPlaceholder");
    this.input.setAttribute("aria-label", tw("searchLabel"));
    this.list.setAttribute("aria-label", tw("searchResults"));
    if (!this.list.hidden) this.render();
  }

  /** Run the query again (typed, or the names or the view changed). */
  refresh(): void {
    const query = this.input.value;
    this.hits = query.trim() ? search(this.on.entries(), query) : [];
    this.active = this.hits.length ? 0 : -1;
    this.render();
  }

  focus(): void {
    this.input.focus();
    this.input.select();
  }

  /** Results gone, the text kept (focus and ↓ bring them back). */
  close(): void {
    this.list.hidden = true;
    this.list.removeAttribute("role");
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  /** The codes listed now, in order, and the one ↑/↓ reached (for window.sceneViewer.search). */
  get shown(): { query: string; results: string[]; active: string | null; open: boolean } {
    return { query: this.input.value, results: this.hits.slice(0, SHOWN_MAX).map((hit) => hit.entry.code),
             active: this.hits[this.active]?.entry.code ?? null, open: !this.list.hidden };
  }

  private keys(e: KeyboardEvent): void {
    const count = Math.min(this.hits.length, SHOWN_MAX);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (this.list.hidden) return this.refresh();
      if (!count) return;
      this.active = (this.active + (e.key === "ArrowDown" ? 1 : -1) + count) % count;
      this.render();
    } else if (e.key === "Enter") {
      e.preventDefault();
      const hit = this.hits[this.active] ?? this.hits[0];
      if (hit) this.choose(hit.entry.code);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation(); // not the viewer's Escape (leave a room, cancel a pick)
      if (!this.list.hidden && this.input.value) this.close();
      else {
        this.input.value = "";
        this.close();
        this.input.blur();
      }
    }
  }

  private choose(code: string): void {
    this.close();
    this.input.blur(); // the keys move the camera again
    this.on.open(code);
  }

  private render(): void {
    const query = this.input.value.trim();
    if (!query) return this.close();
    const chinese = getLang() === "zh" || hasChinese(query);
    const rows = this.hits.slice(0, SHOWN_MAX).map((hit, k) => {
      const { entry } = hit;
      const detail = [chinese ? entry.zh : null, entry.context ? tw("inRoom", { room: entry.context }) : null,
                      tw("onFloor", { code: entry.floor })].filter(Boolean).join(" · ");
      const li = h("li", { class: "sv-result", role: "option", id: `sv-result-${k}`, "data-result": entry.code,
                           "data-kind": entry.kind, "aria-selected": String(k === this.active) },
                   h("span", { class: "sv-result-title" }, entry.title), h("span", { class: "sv-result-detail", lang: langOf(detail) }, detail));
      li.addEventListener("pointerdown", (e) => e.preventDefault()); // the input keeps the focus until the click
      li.addEventListener("click", () => this.choose(entry.code));
      return li;
    });
    if (!rows.length) rows.push(h("li", { class: "sv-result-none" }, tw("searchNone", { query })));
    else if (this.hits.length > SHOWN_MAX) rows.push(h("li", { class: "sv-result-none" }, tw("searchMore", { n: this.hits.length - SHOWN_MAX })));
    this.list.replaceChildren(...rows);
    this.list.hidden = false;
    this.list.setAttribute("role", "listbox");
    this.input.setAttribute("aria-expanded", "true");
    if (this.active >= 0) {
      this.input.setAttribute("aria-activedescendant", `sv-result-${this.active}`);
      const el = this.list.children[this.active] as HTMLElement | undefined;
      if (el) keepInView(this.list, el);
    } else this.input.removeAttribute("aria-activedescendant");
  }
}

/** Scroll `list` (only it, never the page) so that `el` is in view. */
function keepInView(list: HTMLElement, el: HTMLElement): void {
  const top = el.offsetTop - list.clientTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + el.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + el.offsetHeight - list.clientHeight;
}
