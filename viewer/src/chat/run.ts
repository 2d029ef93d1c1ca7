// One agent run as the chat shows it: its event stream dispatched to the cards, the selection
// notices, the question desk and the transcript, until its final answer.
import { parseViewerUrl, type ViewerHandle } from "../contracts";
import type { AgentEvent, ColorResult, FinalEvent, QuestionAnswered, QuestionEvent } from "./events";
import { ToolCards } from "./cards";
import { QuestionDesk } from "./dialog";
import { Ticker } from "./dom";
import { SelectionNotices } from "./selection";
import { RunStream, type StreamState } from "./stream";
import { swatches } from "./swatches";
import { t } from "./strings";
import type { Transcript } from "./transcript";

const RECONNECTING_NOTICE_MS = 700;

export interface RunHost {
  transcript: Transcript;
  ticker: Ticker;
  viewer: ViewerHandle;
  desk: QuestionDesk;
  /** Something the panel's state depends on changed (waiting, connection). */
  changed(): void;
  /** The run is over: its final event, or null when its events were lost. */
  ended(run: Run): void;
}

export class Run {
  final: FinalEvent | null = null;
  connection: StreamState = "connecting";
  readonly stream: RunStream;
  private readonly cards: ToolCards;
  private readonly notices: SelectionNotices;
  private readonly colors: ColorResult[] = [];
  private readonly questions = new Map<string, QuestionEvent>();
  private readonly waitingOn = new Set<string>(); // selection sessions not ended yet
  private finished = false;
  private awhile = false;
  private awhileTimer: number | undefined;

  constructor(readonly runId: string, eventsUrl: string, private readonly host: RunHost) {
    const place = (el: HTMLElement) => host.transcript.append(el);
    this.cards = new ToolCards(place, host.ticker);
    this.notices = new SelectionNotices(place, host.ticker, host.viewer);
    this.stream = new RunStream(runId, eventsUrl, {
      event: (event) => this.handle(event),
      state: (state) => this.connectionChanged(state),
      failed: (message) => {
        host.transcript.error(() => t("chat.stream_failed", { detail: message }));
        this.finish();
      },
    });
  }

  /** True once the stream has been away for a moment (a quick resume is not worth a notice). */
  get reconnecting(): boolean {
    return this.connection === "reconnecting" && this.awhile;
  }

  private connectionChanged(state: StreamState): void {
    this.connection = state;
    if (state !== "reconnecting") {
      window.clearTimeout(this.awhileTimer);
      this.awhileTimer = undefined;
      this.awhile = false;
    } else if (this.awhileTimer === undefined) {
      this.awhileTimer = window.setTimeout(() => {
        this.awhile = true;
        this.host.changed();
      }, RECONNECTING_NOTICE_MS);
    }
    this.host.changed();
  }

  /** Waiting on the user: a pick in the viewer or a question dialog. */
  get waiting(): boolean {
    return this.waitingOn.size > 0 || this.host.desk.open;
  }

  /** Waiting for a pick in the viewer (which the user may also answer in words, in the chat). */
  get waitingForPick(): boolean {
    return this.waitingOn.size > 0;
  }

  start(): void {
    this.stream.start();
  }

  private handle(event: AgentEvent): void {
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
        this.waitingOn.add(event.session_id);
        this.notices.required(event);
        break;
      case "selection_received":
        this.waitingOn.delete(event.session_id);
        this.notices.received(event);
        break;
      case "selection_timeout":
        this.waitingOn.delete(event.session_id);
        this.notices.timeout(event);
        break;
      case "selection_cancelled":
        this.waitingOn.delete(event.session_id);
        this.notices.cancelled(event);
        break;
      case "question":
        this.questions.set(event.question_id, event);
        this.host.desk.ask(event);
        break;
      case "question_answered":
        this.host.desk.ended(event.question_id);
        this.noteAnswer(event);
        break;
      case "message":
        this.host.transcript.agent(event.text);
        break;
      case "final":
        this.final = event;
        this.host.transcript.final(event, swatches(this.colors));
        this.showFinalView(event);
        this.finish();
        break;
    }
    this.host.changed();
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
    this.host.transcript.note(text, "question-note");
  }

  /** "show me room 0-7": the answer names a view other than the one shown; open it view-only. */
  private showFinalView(event: FinalEvent): void {
    if (!event.viewer_url) return;
    const target = parseViewerUrl(event.viewer_url);
    if (!target.manifest || target.manifest === this.host.viewer.current().manifest) return;
    this.host.viewer.open({ manifest: target.manifest, selectionMode: false, sessionId: null, prompt: null }).catch(() => undefined);
  }

  /** Whatever still looks in progress is over with the run. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.cards.abandonRunning();
    this.notices.endAll();
    this.waitingOn.clear();
    for (const id of this.questions.keys()) this.host.desk.ended(id);
    this.stream.close();
    this.host.ended(this);
  }
}
