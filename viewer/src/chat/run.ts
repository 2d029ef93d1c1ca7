// One agent run as the chat shows it: its event stream shown (runView.ts) and kept for a reload (runLog.ts),
// questions handed to the question desk, the picks it waits for tracked, until its final answer.
import { parseViewerUrl, type ViewerHandle } from "../contracts";
import type { AgentEvent, FinalEvent } from "./events";
import { QuestionDesk } from "./dialog";
import { Ticker } from "./dom";
import type { RunRecorder } from "./runLog";
import { RunView } from "./runView";
import { RunStream, type StreamState } from "./stream";
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
  /** Where the run's events are kept for a reload (null: not kept). */
  recorder: RunRecorder | null;
  /** Something needs the user's eyes: the answer came (notify), or a question waits for them. */
  attention?: { answered(): void; asked(): void };
}

export class Run {
  final: FinalEvent | null = null;
  connection: StreamState = "connecting";
  readonly stream: RunStream;
  private readonly view: RunView;
  private readonly questions = new Set<string>();
  private readonly waitingOn = new Set<string>(); // selection sessions not ended yet
  private readonly asked = new Set<string>(); // every selection session of the run
  private finished = false;
  private awhile = false;
  private awhileTimer: number | undefined;

  constructor(readonly runId: string, eventsUrl: string, private readonly host: RunHost) {
    this.view = new RunView(host.transcript, host.ticker, host.viewer);
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
    this.host.recorder?.add(event);
    if (event.type === "question_answered") this.host.desk.ended(event.question_id); // the dialog closes before its note
    this.view.show(event);
    switch (event.type) {
      case "selection_required":
        this.waitingOn.add(event.session_id);
        this.asked.add(event.session_id);
        break;
      case "selection_received":
      case "selection_timeout":
      case "selection_cancelled":
        this.waitingOn.delete(event.session_id);
        break;
      case "question":
        this.questions.add(event.question_id);
        this.host.desk.ask(event);
        this.host.attention?.asked();
        break;
      case "final":
        this.final = event;
        this.host.attention?.answered();
        this.finish(); // a pick still waiting is over first: the viewer then shows the answer, not the pick
        this.showAnswer(event);
        break;
    }
    this.host.changed();
  }

  /** The viewer shows what the answer is about: the view it names ("show me room 0-7"), else its codes. */
  private showAnswer(event: FinalEvent): void {
    const manifest = event.viewer_url ? parseViewerUrl(event.viewer_url).manifest : null;
    this.host.viewer.follow({ codes: event.codes, manifest, sessions: [...this.asked] });
  }

  /** Whatever still looks in progress is over with the run. */
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.view.settle();
    this.waitingOn.clear();
    for (const id of this.questions.keys()) this.host.desk.ended(id);
    this.stream.close();
    this.host.ended(this);
  }
}
