// What the chat does with what the user types: a message starts a run in the tab's conversation
// (conversation.ts), followed until its final answer (run.ts); while the run waits for a pick in the viewer and
// no question dialog is open, what is typed answers that pick instead. One run at a time: Stop asks the server to
// end it, New chat starts over, and a reload picks the conversation up again. The panel (panel.ts) shows which.
import type { ViewerHandle } from "../contracts";
import { ApiError, getConversation, getRunMessage, stopRun } from "./api";
import { Conversation } from "./conversation";
import type { QuestionDesk } from "./dialog";
import type { Ticker } from "./dom";
import type { ChatPanel, PanelView } from "./panel";
import { showPastTurns } from "./pastTurns";
import { Run } from "./run";
import { RunRecorder } from "./runLog";
import { t } from "./strings";
import type { Transcript } from "./transcript";

export type ChatState = PanelView["state"];

export interface ChatParts {
  panel: ChatPanel;
  transcript: Transcript;
  ticker: Ticker;
  desk: QuestionDesk;
  viewer: ViewerHandle;
  /** `attention`: the page's layout is told when an answer comes and when a question waits (a phone shows one pane). */
  attention?: { answered(): void; asked(): void };
}

/** What went wrong, as the server said it or the browser did. */
function detailOf(error: unknown): string {
  return error instanceof ApiError ? error.serverMessage : error instanceof Error ? error.message : String(error);
}

export class Chat {
  readonly conversation = new Conversation();
  /** The run followed now, and the one before it once it is over (for the test hooks). */
  run: Run | null = null;
  lastRun: Run | null = null;
  private sending = false; // a message on its way that starts a run
  private answering = false; // words on their way that answer the pick the run waits for
  private stopping = false;
  private failed = false;

  constructor(private readonly parts: ChatParts) {}

  state(): ChatState {
    if (this.sending) return "running";
    if (this.run) return this.run.waiting ? "waiting" : "running";
    return this.failed ? "error" : "idle";
  }

  /** The run waits for a pick in the viewer and no question dialog is open: what is typed answers the pick. */
  inWords(): boolean {
    return this.run !== null && this.run.waitingForPick && !this.parts.desk.open && !this.stopping;
  }

  update(): void {
    this.parts.panel.render({
      state: this.state(), running: this.sending || this.run !== null, inWords: this.inWords(), answering: this.answering,
      run: this.run !== null, stopping: this.stopping, reconnecting: !!this.run?.reconnecting,
    });
  }

  async send(): Promise<void> {
    const { input } = this.parts.panel;
    const { transcript } = this.parts;
    const text = input.value.trim();
    if (!text || this.sending || this.answering) return;
    if (this.run) {
      if (this.inWords()) await this.answerPick(text);
      return;
    }
    this.sending = true;
    this.failed = false;
    input.value = "";
    transcript.user(text);
    this.update();
    try {
      // The camera as the user sees the scene while they send: "the chair on the left" is left on their screen.
      const reply = await this.conversation.send(text, this.parts.viewer.camera(), () => transcript.error(() => t("chat.lost")));
      if (reply.kind === "started") {
        this.conversation.id = reply.run.conversation_id;
        this.follow(reply.run.run_id, reply.run.events_url, text);
      } else {
        // The conversation's run (followed in another tab of this conversation) was waiting for a pick: the
        // message answered it. Follow that run here too.
        this.conversation.id = reply.pick.conversation_id;
        const said = reply.pick.message;
        transcript.note(() => said, "pick-note");
        if (reply.pick.run_id) this.follow(reply.pick.run_id, `/api/runs/${encodeURIComponent(reply.pick.run_id)}/events`);
      }
      this.conversation.remember();
    } catch (error) {
      this.failed = true;
      input.value = text; // nothing was sent: give the words back
      const detail = detailOf(error);
      if (error instanceof ApiError && error.code === "run_in_progress") transcript.error(() => t("chat.busy"));
      // The browser's own words for a network failure ("TypeError: Failed to fetch") tell people nothing.
      else if (error instanceof ApiError && error.status === 0) transcript.error(() => t("chat.unreachable"));
      else transcript.error(() => t("chat.refused", { detail }));
    } finally {
      this.sending = false;
      this.update();
    }
  }

  /** Words typed while the run waits for a pick: the server reads them as the answer to that pick (or refuses). */
  private async answerPick(text: string): Promise<void> {
    const { input } = this.parts.panel;
    const { transcript } = this.parts;
    this.answering = true;
    input.value = "";
    transcript.user(text);
    this.update();
    try {
      // answersPick: if the pick ended just before the words came, the server refuses them (409) rather than
      // taking "the red one" for a new question.
      const reply = await this.conversation.answerPick(text, this.parts.viewer.camera());
      if (reply.kind === "picked") {
        const said = reply.pick.message; // the run's events bring the pick itself (selection_received / _cancelled)
        transcript.note(() => said, "pick-note");
      }
    } catch (error) {
      const detail = detailOf(error);
      if (error instanceof ApiError && error.status === 422) {
        transcript.error(() => detail); // what the words pick, and what would fit; the pick still waits
      } else if (error instanceof ApiError && [404, 409, 410].includes(error.status)) {
        transcript.error(() => t("chat.pick_closed", { detail })); // answered meanwhile, expired, or the run moved on
      } else if (error instanceof ApiError && error.status === 0) {
        if (!input.value) input.value = text; // nothing was sent: give the words back
        transcript.error(() => t("chat.unreachable"));
      } else {
        transcript.error(() => t("chat.refused", { detail }));
      }
    } finally {
      this.answering = false;
      this.update();
      if (this.inWords()) input.focus();
    }
  }

  /** Show a run's events as they come (from its first event), until its final answer; `query`: what it answers. */
  private follow(runId: string, eventsUrl: string, query: string | null = null): void {
    const { transcript, ticker, viewer, desk, attention } = this.parts;
    const conversationId = this.conversation.id;
    this.run = new Run(runId, eventsUrl, {
      transcript, ticker, viewer, desk, attention,
      recorder: conversationId ? new RunRecorder(conversationId, runId, query) : null,
      changed: () => this.update(),
      ended: (ended) => {
        if (this.run !== ended) return;
        this.lastRun = ended;
        this.failed = ended.final === null || ended.final.status === "error";
        this.run = null;
        this.stopping = false;
        this.update();
        this.parts.panel.input.focus();
      },
    });
    this.run.start();
  }

  /** After a reload: the tab's conversation so far, and the run still answering (its events replayed). */
  async restore(id: string): Promise<void> {
    this.sending = true;
    this.update();
    try {
      const state = await getConversation(id);
      this.conversation.id = state.conversation_id;
      showPastTurns(state, id, this.parts.transcript, this.parts.ticker);
      if (state.running) {
        const message = await getRunMessage(state.running);
        this.parts.transcript.user(message);
        this.follow(state.running, `/api/runs/${state.running}/events`, message);
      }
    } catch {
      this.conversation.forget(id); // the server restarted or forgot it: the next message starts a new conversation
    } finally {
      this.sending = false;
      this.update();
    }
  }

  async stop(): Promise<void> {
    if (!this.run || this.stopping) return;
    this.stopping = true;
    this.update();
    try {
      await stopRun(this.run.runId);
    } catch {
      // already finished (409) or unreachable: the stream's final event settles it either way
    }
  }

  /** New chat: the conversation starts over (not while a message or a run is going). */
  newChat(): void {
    if (this.run || this.sending || this.answering) return;
    this.conversation.forget();
    this.failed = false;
    this.parts.transcript.clear();
    this.update();
    this.parts.panel.input.focus();
  }
}
