// What a run's events look like in the chat: tool-call cards, selection notices, the agent's messages, the
// outcome of its questions, and the final answer with colour swatches. Used for a run as it happens (run.ts)
// and for a past run shown again after a reload (its events kept by runLog.ts), where nothing is re-opened.
import type { ViewerHandle } from "../contracts";
import type { AgentEvent, ColorResult, FinalEvent, QuestionAnswered, QuestionEvent } from "./events";
import { ToolCards } from "./cards";
import { Ticker } from "./dom";
import { SelectionNotices } from "./selection";
import { swatches } from "./swatches";
import { t } from "./strings";
import type { Transcript } from "./transcript";

/** A viewer that does nothing: a past run's notices must not open or end anything in the real one. */
const MUTED: ViewerHandle = {
  open: () => Promise.resolve(),
  current: () => ({ manifest: null, selectionMode: false, sessionId: null, prompt: null }),
  sessionEnded: () => undefined,
  camera: () => null,
  follow: () => false,
  frame: () => Promise.resolve(),
};

export class RunView {
  readonly cards: ToolCards;
  readonly notices: SelectionNotices;
  private readonly colors: ColorResult[] = [];
  private readonly questions = new Map<string, QuestionEvent>();

  /** `viewer` null: a past run, shown again without touching the viewer. */
  constructor(private readonly transcript: Transcript, ticker: Ticker, viewer: ViewerHandle | null) {
    const place = (el: HTMLElement) => transcript.append(el);
    this.cards = new ToolCards(place, ticker);
    this.notices = new SelectionNotices(place, ticker, viewer ?? MUTED);
  }

  show(event: AgentEvent): void {
    switch (event.type) {
      case "tool_call_start":
        this.cards.start(event);
        break;
      case "tool_call_result":
        this.cards.result(event);
        if (event.tool_name === "color") this.colors.push(event.result);
        break;
      case "tool_call_error":
        this.cards.error(event);
        break;
      case "selection_required":
        this.notices.required(event);
        break;
      case "selection_extended":
        this.notices.extended(event);
        break;
      case "selection_received":
        this.notices.received(event);
        break;
      case "selection_timeout":
        this.notices.timeout(event);
        break;
      case "selection_cancelled":
        this.notices.cancelled(event);
        break;
      case "question":
        this.questions.set(event.question_id, event);
        break;
      case "question_answered":
        this.noteAnswer(event);
        break;
      case "message":
        this.transcript.agent(event.text);
        break;
      case "final":
        this.final(event);
        break;
    }
  }

  /** The answer, with the colours measured on the way. */
  final(event: FinalEvent): void {
    this.transcript.final(event, swatches(this.colors));
  }

  /** The run is over: whatever still looks in progress is not any more. */
  settle(): void {
    this.cards.abandonRunning();
    this.notices.endAll();
  }

  private noteAnswer(event: QuestionAnswered): void {
    const total = this.questions.get(event.question_id)?.questions.length ?? event.answers.length;
    const summary = event.answers
      .map((a) => `${a.header ?? a.question_index + 1}: ${Array.isArray(a.answer) ? a.answer.join(", ") : a.answer ?? ""}`)
      .join("; ");
    const text = {
      answered: () => t("q.answered", { summary }),
      cancelled: () => t("q.cancelled", { done: event.answers.length, total }),
      timeout: () => t("q.timeout"),
      no_ui: () => t("q.no_ui"),
    }[event.status];
    this.transcript.note(text, "question-note");
  }
}
