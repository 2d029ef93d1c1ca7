// Tool-call cards: one card per call id, updated in place as its start, result or error
// arrives, so concurrent calls never mix. Cards stay in the order their calls started.
import type { Args, Summary, ToolCallError, ToolCallResult, ToolCallStart } from "./events";
import { timeOf } from "./events";
import { Ticker, bindText, formatDuration, h, prettyJson, tx } from "./dom";
import { drawInto, icon } from "./icons";
import { argsSummary, resultSummary } from "./summaries";
import { t, type Key } from "./strings";

/** While running, then how it ended: a result's `summary.tone` (done, timeout, nothing), or an error's. */
export type CardStatus = "running" | Summary["tone"] | "failed" | "cancelled";

const STATUS_KEYS: Record<CardStatus, Key> = {
  running: "card.running", done: "card.done", nothing: "card.nothing", failed: "card.failed", timeout: "card.timeout",
  cancelled: "card.cancelled",
};
// The tools the page has a name for in both languages. A tool it does not know (one added to the server's registry
// after this page was built) still gets its card: titled with its own name, then the server's one-line summary
// and its result as JSON, as every card has.
const TOOL_KEYS: Record<string, Key> = {
  find: "tool.find", visualize: "tool.visualize", color: "tool.color", volume: "tool.volume", measure: "tool.measure",
  question: "tool.question",
};

class Card {
  readonly el: HTMLElement;
  status: CardStatus = "running";
  private readonly icon = icon("running", "card-icon");
  private readonly statusText = h("span", { class: "card-status" });
  private readonly time = h("span", { class: "card-time" });
  private readonly summary = h("div", { class: "card-summary" });
  private readonly argsPre = h("pre", { class: "card-json", "data-testid": "card-args" });
  private readonly outcome = h("details", { class: "card-part", hidden: true });
  private readonly outcomeLabel = h("summary");
  private readonly outcomePre = h("pre", { class: "card-json", "data-testid": "card-result" });
  private readonly startedAt: number;

  constructor(readonly id: string, readonly tool: string, args: Args, ts: string, ticker: Ticker) {
    const toolLabel = h("span", { class: "card-tool" });
    if (TOOL_KEYS[tool]) tx(toolLabel, TOOL_KEYS[tool]); else toolLabel.textContent = tool;
    this.el = h("article", { class: "card", "data-testid": "tool-card", "data-call-id": id, "data-tool": tool },
      h("div", { class: "card-head" }, this.icon, toolLabel, h("code", { class: "card-name" }, tool), this.statusText, this.time),
      this.summary,
      h("details", { class: "card-part" }, tx(h("summary"), "card.args"), this.argsPre),
      this.outcome);
    this.outcome.append(this.outcomeLabel, this.outcomePre);
    this.argsPre.textContent = prettyJson(args);
    bindText(this.summary, () => argsSummary(args));
    const stamp = timeOf(ts);
    this.startedAt = Number.isFinite(stamp) ? Math.min(stamp, Date.now()) : Date.now();
    this.setStatus("running");
    ticker.add(() => {
      if (this.status !== "running") return false;
      this.time.textContent = formatDuration(Math.max(0, Date.now() - this.startedAt));
      return true;
    });
  }

  finish(result: ToolCallResult): void {
    const summary = result.summary;
    this.setStatus(summary.tone);
    this.time.textContent = formatDuration(result.duration_ms);
    bindText(this.summary, () => resultSummary(summary));
    tx(this.outcomeLabel, "card.result");
    this.outcomePre.textContent = prettyJson(result.result);
    this.outcome.hidden = false;
  }

  fail(error: ToolCallError): void {
    this.setStatus(error.status === "timeout" || error.status === "cancelled" ? error.status : "failed");
    this.time.textContent = formatDuration(error.duration_ms);
    this.summary.textContent = error.error.message;
    delete this.summary.dataset.i18n; // the server's message, not ours to translate
    tx(this.outcomeLabel, "card.error");
    this.outcomePre.textContent = prettyJson(error.error);
    this.outcome.hidden = false;
  }

  /** The run ended while this call had no outcome (stopped): show it as cancelled, not running forever. */
  abandon(): void {
    if (this.status === "running") this.setStatus("cancelled");
  }

  private setStatus(status: CardStatus): void {
    this.status = status;
    this.el.dataset.status = status;
    drawInto(this.icon, status);
    bindText(this.statusText, () => t(STATUS_KEYS[status]));
  }
}

/** The cards of a conversation, by call id; new cards go where `place` puts them. */
export class ToolCards {
  private readonly cards = new Map<string, Card>();

  constructor(private readonly place: (el: HTMLElement) => void, private readonly ticker: Ticker) {}

  start(event: ToolCallStart): void {
    this.card(event.id, event.tool_name, event.args, event.ts);
  }

  result(event: ToolCallResult): void {
    this.card(event.id, event.tool_name, event.args, event.ts).finish(event);
  }

  error(event: ToolCallError): void {
    this.card(event.id, event.tool_name, event.args, event.ts).fail(event);
  }

  /** Mark every still-running card as cancelled (the run is over). */
  abandonRunning(): void {
    for (const card of this.cards.values()) card.abandon();
  }

  private card(id: string, tool: string, args: Args, ts: string): Card {
    let card = this.cards.get(id);
    if (!card) {
      card = new Card(id, tool, args, ts, this.ticker);
      this.cards.set(id, card);
      this.place(card.el);
    }
    return card;
  }
}
