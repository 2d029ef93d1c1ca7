// The message list: the user's messages, the agent's messages, tool-call cards and notices as they
// come, and each run's final answer. Stays scrolled to the bottom unless the user scrolled up.
import type { FinalEvent } from "./events";
import { bindText, h, listCodes, tx } from "./dom";
import type { Key } from "./strings";

const FINAL_KEYS: Record<FinalEvent["status"], Key> = {
  answered: "final.answered", not_found: "final.not_found", cancelled: "final.cancelled", timeout: "final.timeout", error: "final.error",
};

/** Whether `status` (a past turn's, which the server sends as a plain string) is one a final answer can have. */
export function isFinalStatus(status: string): status is FinalEvent["status"] {
  return Object.hasOwn(FINAL_KEYS, status);
}

export class Transcript {
  readonly el = h("div", { class: "chat-log", role: "log", "aria-live": "polite", "data-testid": "chat-log" });
  private readonly empty = tx(h("p", { class: "chat-empty" }), "chat.empty");

  constructor() {
    this.el.append(this.empty);
  }

  /** Add an element (a card, a notice, a dialog note) at the end. */
  append(el: HTMLElement): void {
    const atBottom = this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 40;
    this.empty.remove();
    this.el.append(el);
    if (atBottom) this.el.scrollTop = this.el.scrollHeight;
  }

  user(text: string): void {
    this.append(h("div", { class: "msg msg-user", "data-testid": "user-message" },
      tx(h("div", { class: "msg-who" }), "chat.you"), h("div", { class: "msg-text" }, text)));
  }

  agent(text: string): void {
    this.append(h("div", { class: "msg msg-agent", "data-testid": "agent-message" },
      tx(h("div", { class: "msg-who" }), "chat.agent"), h("div", { class: "msg-text" }, text)));
  }

  /** The run's answer, with its status when it is not a plain answer, and what goes under it (swatches). */
  final(event: FinalEvent, extra: HTMLElement | null): void {
    const status = event.status !== "answered" ? tx(h("span", { class: `badge badge-${event.status}`, "data-testid": "final-status" }), FINAL_KEYS[event.status]) : null;
    const codes = event.codes.length ? tx(h("div", { class: "final-codes" }), "final.codes", { codes: listCodes(event.codes, 10) }) : null;
    this.append(h("div", { class: "msg msg-agent msg-final", "data-testid": "final-answer", "data-status": event.status },
      h("div", { class: "msg-who" }, tx(h("span"), "chat.agent"), status),
      h("div", { class: "msg-text" }, event.answer), codes, extra));
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
  }
}
