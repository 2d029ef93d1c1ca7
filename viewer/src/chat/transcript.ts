// The message list: the user's messages, the agent's messages, tool-call cards and notices as they
// come, and each run's final answer (addresses in it are links, scene codes buttons: codeLinks.ts). It follows the newest message — a new
// answer, notice or question note is scrolled into view, and so is whatever grows afterwards (a card's
// result) — unless the user scrolled up to read; then a "Newest ↓" button takes them back down.
import { langOf } from "../i18n";
import type { CodeLinks } from "./codeLinks";
import type { FinalEvent } from "./events";
import { bindAttr, bindText, h, linkify, listCodes, tx } from "./dom";
import { t, type Key } from "./strings";

const FINAL_KEYS: Record<FinalEvent["status"], Key> = {
  answered: "final.answered", not_found: "final.not_found", cancelled: "final.cancelled", timeout: "final.timeout", error: "final.error",
};
// Closer than this to the bottom counts as at the bottom (a reader there wants to see what comes).
const AT_BOTTOM_PX = 40;

/** Whether `status` (a past turn's, which the server sends as a plain string) is one a final answer can have. */
export function isFinalStatus(status: string): status is FinalEvent["status"] {
  return Object.hasOwn(FINAL_KEYS, status);
}

export class Transcript {
  readonly el = h("div", { class: "chat-log", role: "log", "aria-live": "polite", "data-testid": "chat-log" });
  /** "Newest ↓": shown while the user reads further up and something new came. */
  readonly jump = bindAttr(tx(h("button", { type: "button", class: "chat-jump", "data-testid": "chat-jump", hidden: true }), "chat.jump"),
                           "aria-label", () => t("chat.jump_label"));
  private readonly empty = tx(h("p", { class: "chat-empty" }), "chat.empty");
  /** Following the newest message (false once the user scrolled up to read). */
  private following = true;
  /** Where we scrolled to last: a scroll event that lands elsewhere is the user's. */
  private ourTop = 0;
  /** The newest answer: kept in view from its top when it is taller than the list. */
  private answer: HTMLElement | null = null;

  /** `codes`: makes the scene codes in the agent's words buttons (none: they stay text). */
  constructor(private readonly codes: CodeLinks | null = null) {
    this.el.append(this.empty);
    this.el.addEventListener("scroll", () => this.scrolled());
    this.jump.addEventListener("click", () => this.toNewest());
    // Content grows after it is added (a card's result, a notice's outcome, swatches): keep up with it.
    new MutationObserver(() => this.keepUp()).observe(this.el, { childList: true, subtree: true, characterData: true, attributes: true,
                                                                 attributeFilter: ["hidden", "open"] });
    new ResizeObserver(() => this.keepUp()).observe(this.el);
  }

  /** Add an element (a card, a notice, a dialog note) at the end. */
  append(el: HTMLElement): void {
    this.empty.remove();
    this.answer = null;
    this.el.append(el);
    this.keepUp();
  }

  /** Back to the newest message, following it again (the user sent something, or pressed "Newest"). */
  toNewest(): void {
    this.following = true;
    this.keepUp();
  }

  private scrolled(): void {
    const gap = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight;
    if (gap < AT_BOTTOM_PX) {
      this.following = true;
      this.jump.hidden = true;
    } else if (Math.abs(this.el.scrollTop - this.ourTop) > 2 && this.el.scrollTop < this.ourTop) {
      this.following = false; // the user scrolled up to read: stay where they are
    }
  }

  private keepUp(): void {
    if (!this.following) {
      if (this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight >= AT_BOTTOM_PX) this.jump.hidden = false;
      return;
    }
    let top = this.el.scrollHeight - this.el.clientHeight;
    if (this.answer?.isConnected) {
      // An answer taller than the list is shown from its beginning, not its end.
      const from = this.answer.getBoundingClientRect().top - this.el.getBoundingClientRect().top + this.el.scrollTop - 8;
      top = Math.min(top, Math.max(0, from));
    }
    this.el.scrollTop = top;
    this.ourTop = this.el.scrollTop;
    this.jump.hidden = true;
  }

  user(text: string): void {
    this.following = true; // the user just wrote: what follows is what they want to see
    this.append(h("div", { class: "msg msg-user", "data-testid": "user-message" },
      tx(h("div", { class: "msg-who" }), "chat.you"), h("div", { class: "msg-text", lang: langOf(text) }, text)));
  }

  agent(text: string): void {
    this.append(h("div", { class: "msg msg-agent", "data-testid": "agent-message" },
      tx(h("div", { class: "msg-who" }), "chat.agent"), this.words(text)));
  }

  /** The agent's words: addresses as links, scene codes as buttons. */
  private words(text: string): HTMLElement {
    const el = h("div", { class: "msg-text", lang: langOf(text) }, ...linkify(text));
    this.codes?.apply(el);
    return el;
  }

  /** The run's answer, with its status when it is not a plain answer, and what goes under it (swatches). */
  final(event: FinalEvent, extra: HTMLElement | null): void {
    const status = event.status !== "answered" ? tx(h("span", { class: `badge badge-${event.status}`, "data-testid": "final-status" }), FINAL_KEYS[event.status]) : null;
    const codes = event.codes.length ? tx(h("div", { class: "final-codes" }), "final.codes", { codes: listCodes(event.codes, 10) }) : null;
    const el = h("div", { class: "msg msg-agent msg-final", "data-testid": "final-answer", "data-status": event.status },
      h("div", { class: "msg-who" }, tx(h("span"), "chat.agent"), status),
      this.words(event.answer), codes, extra);
    this.append(el);
    this.answer = el;
    this.keepUp();
  }

  /** A small line in the flow (a question's outcome). */
  note(text: () => string, testid = "chat-note"): void {
    this.append(bindText(h("div", { class: "note", "data-testid": testid }), text));
  }

  /** Something went wrong around the run (refused, unreachable). */
  error(text: () => string): void {
    this.append(bindText(h("div", { class: "note note-error", role: "alert", "data-testid": "chat-error" }), text));
  }

  clear(): void {
    this.el.replaceChildren(this.empty);
    this.answer = null;
    this.following = true;
    this.jump.hidden = true;
  }
}
