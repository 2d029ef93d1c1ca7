// The chat's side of the selection hand-off: a notice while the agent waits for a pick in the viewer
// (prompt, candidates, countdown — moved on when the user asks for more time), the viewer switched to
// selection mode in place, and the outcome.
import { parseViewerUrl, type ViewTarget, type ViewerHandle } from "../contracts";
import type { SelectionCancelled, SelectionExtended, SelectionReceived, SelectionRequired, SelectionTimeout } from "./events";
import { timeOf } from "./events";
import { Ticker, bindText, formatClock, h, listCodes, tx } from "./dom";
import { icon } from "./icons";
import { t, type Key } from "./strings";

type NoticeStatus = "pending" | "received" | "timeout" | "cancelled";
const CANCELLED_KEYS: Record<SelectionCancelled["cancelled_by"], Key> = {
  viewer: "sel.cancelled_viewer", words: "sel.cancelled_words", host: "sel.cancelled_host", caller: "sel.cancelled_caller",
  invalid: "sel.cancelled_invalid",
};

class Notice {
  readonly el: HTMLElement;
  status: NoticeStatus = "pending";
  private readonly countdown = h("div", { class: "notice-countdown", "data-testid": "selection-countdown" });
  private readonly outcome = h("div", { class: "notice-outcome", "data-testid": "selection-outcome", hidden: true });
  private readonly showButton: HTMLButtonElement;
  private deadline: number;

  constructor(event: SelectionRequired, ticker: Ticker, show: () => void) {
    this.showButton = tx(h("button", { type: "button", class: "link-button", "data-testid": "selection-show" }), "sel.show");
    this.showButton.addEventListener("click", show);
    this.el = h("section", { class: "notice selection-notice", "data-testid": "selection-notice",
                             "data-session-id": event.session_id, "data-status": "pending", role: "status" },
      h("div", { class: "notice-title" }, icon("pick", "notice-icon"), tx(h("span"), "sel.title")),
      event.prompt ? h("div", { class: "notice-prompt", "data-testid": "selection-prompt" }, event.prompt) : null,
      tx(h("div", { class: "notice-hint" }), event.multiple ? "sel.many" : "sel.one"),
      tx(h("div", { class: "notice-candidates" }), "sel.candidates", { n: event.candidates.length, codes: listCodes(event.candidates, 8) }),
      h("div", { class: "notice-row" }, this.countdown, this.showButton),
      this.outcome);
    const expires = timeOf(event.expires_at);
    this.deadline = Number.isFinite(expires) ? expires : Date.now() + event.timeout * 1000;
    ticker.add(() => {
      if (this.status !== "pending") return false;
      const left = formatClock((this.deadline - Date.now()) / 1000);
      bindText(this.countdown, () => t("sel.left", { left }));
      return true;
    });
  }

  /** More time was given: the countdown runs to the new deadline. */
  extend(expiresAt: string): void {
    const expires = timeOf(expiresAt);
    if (Number.isFinite(expires)) this.deadline = expires;
  }

  end(status: Exclude<NoticeStatus, "pending">, text: () => string): void {
    if (this.status !== "pending") return;
    this.status = status;
    this.el.dataset.status = status;
    this.countdown.hidden = true;
    this.showButton.hidden = true;
    this.outcome.hidden = false;
    bindText(this.outcome, text);
  }
}

/** Selection notices of one run, by session id. */
export class SelectionNotices {
  private readonly notices = new Map<string, Notice>();

  constructor(private readonly place: (el: HTMLElement) => void, private readonly ticker: Ticker,
              private readonly viewer: ViewerHandle) {}

  required(event: SelectionRequired): void {
    if (this.notices.has(event.session_id)) return;
    const target = parseViewerUrl(event.viewer_url);
    const notice = new Notice(event, this.ticker, () => this.open(target));
    this.notices.set(event.session_id, notice);
    this.place(notice.el);
    this.open(target);
  }

  extended(event: SelectionExtended): void {
    this.notices.get(event.session_id)?.extend(event.expires_at);
  }

  received(event: SelectionReceived): void {
    const codes = event.codes.length ? event.codes : event.selections.map((s) => s.itemCode);
    const words = event.words;
    this.notices.get(event.session_id)?.end("received", () =>
      words ? t("sel.received_words", { codes: listCodes(codes), words }) : t("sel.received", { codes: listCodes(codes) }));
    this.viewer.sessionEnded(event.session_id, "confirmed", codes);
  }

  timeout(event: SelectionTimeout): void {
    this.notices.get(event.session_id)?.end("timeout", () => t("sel.timeout"));
    this.viewer.sessionEnded(event.session_id, "expired");
  }

  cancelled(event: SelectionCancelled): void {
    const key = CANCELLED_KEYS[event.cancelled_by] ?? "sel.cancelled_caller";
    // A cancel in words needs no reason (the server's says the same, in English only).
    const reason = event.cancelled_by !== "words" && event.reason ? ` (${event.reason})` : "";
    this.notices.get(event.session_id)?.end("cancelled", () => t(key) + reason);
    this.viewer.sessionEnded(event.session_id, "cancelled");
  }

  /** The run ended: a notice still waiting can wait no more. */
  endAll(): void {
    for (const [sessionId, notice] of this.notices) {
      if (notice.status !== "pending") continue;
      notice.end("cancelled", () => t("sel.cancelled_caller"));
      this.viewer.sessionEnded(sessionId, "cancelled");
    }
  }

  private open(target: ViewTarget): void {
    this.viewer.open(target).catch(() => undefined); // the viewer shows its own load errors
  }
}
