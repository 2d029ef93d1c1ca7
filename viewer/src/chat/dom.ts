// Small DOM helpers for the chat panel: building elements, text that follows the language switch,
// links in text, one shared clock for countdowns and elapsed times, and number formats.
import { t } from "./strings";

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | undefined>;

/** An element with attributes (`class`, `data-*`, `aria-*`, …; `true` = present) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

const texts = new WeakMap<Element, () => string>();
const attrs = new WeakMap<Element, Map<string, () => string>>();

/** Set `el`'s text from `text()` now and again after every language switch (el must hold only this text). */
export function bindText<E extends HTMLElement>(el: E, text: () => string): E {
  texts.set(el, text);
  el.dataset.i18n = "";
  el.textContent = text();
  return el;
}

/** `bindText` with one string of the table. */
export function tx<E extends HTMLElement>(el: E, key: Parameters<typeof t>[0], vars?: Record<string, string | number>): E {
  return bindText(el, () => t(key, vars));
}

/** Set an attribute (placeholder, title, aria-label) that follows the language switch. */
export function bindAttr<E extends HTMLElement>(el: E, name: string, text: () => string): E {
  const map = attrs.get(el) ?? new Map<string, () => string>();
  map.set(name, text);
  attrs.set(el, map);
  el.dataset.i18nAttr = "";
  el.setAttribute(name, text());
  return el;
}

/** Re-render every bound text and attribute under `root` (after a language switch). */
export function relocalize(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n]")) {
    const text = texts.get(el);
    if (text) el.textContent = text();
  }
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n-attr]")) {
    for (const [name, text] of attrs.get(el) ?? []) el.setAttribute(name, text());
  }
}

/** One clock for the whole panel: each tick calls every listener; a listener returning false is dropped. */
export class Ticker {
  private readonly listeners = new Set<() => boolean>();
  private timer: number | undefined;

  constructor(private readonly periodMs = 250) {}

  /** Call `listener` now and on every tick until it returns false. */
  add(listener: () => boolean): void {
    if (!listener()) return;
    this.listeners.add(listener);
    this.timer ??= window.setInterval(() => this.tick(), this.periodMs);
  }

  private tick(): void {
    for (const listener of this.listeners) if (!listener()) this.listeners.delete(listener);
    if (this.listeners.size === 0 && this.timer !== undefined) {
      window.clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** '<1 ms', '12 ms' under a second, '1.3 s' above. */
export function formatDuration(ms: number): string {
  if (ms < 1) return "<1 ms";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** '1:05' — seconds left as minutes and seconds (never negative). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Pretty JSON for the expandable parts of a card. */
export function prettyJson(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

// An http(s) address in a text: ASCII URL characters only, so that Chinese text right after it stays text.
const URL_IN_TEXT = /https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&()*+,;=%]+/g;

/** `text` as text nodes and links: every http(s) address becomes an <a> (new tab, rel="noopener noreferrer").
 *  Only DOM nodes are built — the text is never parsed as HTML, whatever it holds. */
export function linkify(text: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    let url = match[0];
    // Punctuation at the end belongs to the sentence; a ")" too, unless the address opened one.
    const trailing = url.includes("(") ? /[.,;:!?]+$/ : /[.,;:!?)]+$/;
    url = url.replace(trailing, "");
    let href: URL;
    try {
      href = new URL(url);
    } catch {
      continue;
    }
    if (href.protocol !== "http:" && href.protocol !== "https:") continue;
    const at = match.index ?? 0;
    if (at > last) nodes.push(document.createTextNode(text.slice(last, at)));
    const link = document.createElement("a");
    link.href = href.href;
    link.textContent = url;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    nodes.push(link);
    last = at + url.length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

/** '0-1-1, 0-1-2, … (12 in all)'. */
export function listCodes(codes: string[], max = 6): string {
  const shown = codes.slice(0, max).join(", ");
  return codes.length > max ? `${shown}, … (${codes.length})` : shown;
}
