// The chat panel beside the viewer: type a question, watch the agent's tool calls as cards,
// pick in the viewer (or say which one in words, typed here) or answer question dialogs when it asks, read the
// answer. One run at a time per conversation; the conversation id is sent back so later turns can refer to earlier
// ones. While the run waits for a pick, the input stays open: what is typed then answers the pick, not a new question.
// A reload shows the tab's conversation again: its turns from the server, with the cards each run showed (runLog.ts).
import "./chat.css";
import type { ViewerHandle } from "../contracts";
import { getLang, onLangChange, setLang, LANGS, type Lang } from "../i18n";
import { ApiError, getConversation, getRunMessage, startRun, stopRun, type ChatReply } from "./api";
import { QuestionDesk } from "./dialog";
import { Ticker, bindAttr, h, relocalize, tx } from "./dom";
import { Run } from "./run";
import { forgetRuns, keptRuns, pairTurns, RunRecorder } from "./runLog";
import { RunView } from "./runView";
import { t } from "./strings";
import { Transcript, isFinalStatus } from "./transcript";

export type ChatState = "idle" | "running" | "waiting" | "error";

const LANG_NAMES: Record<Lang, string> = { en: "EN", zh: "中文" };
// The conversation of this tab, so that a reload carries on with it (sessionStorage: per tab, gone with it).
const CONVERSATION_KEY = "scene-agent.conversation";

function remembered(): string | null {
  try {
    return window.sessionStorage.getItem(CONVERSATION_KEY);
  } catch {
    return null;
  }
}

function remember(conversationId: string | null): void {
  try {
    if (conversationId) window.sessionStorage.setItem(CONVERSATION_KEY, conversationId);
    else window.sessionStorage.removeItem(CONVERSATION_KEY);
  } catch {
    // not remembered: a reload starts a new conversation
  }
}

/** Test and debugging hooks on `window.sceneChat`. */
export interface ChatHooks {
  readonly conversationId: string | null;
  readonly runId: string | null;
  /** How often the current run's stream was reopened. */
  readonly reconnects: number;
  /** Ids of the current run's events as handed on (no gaps, no duplicates). */
  receivedIds(): number[];
  /** Drop the current run's event stream as a network failure would; with `hold`, stay away until resumeStream(). */
  dropStream(hold?: boolean): void;
  resumeStream(): void;
}

declare global {
  interface Window {
    sceneChat?: ChatHooks;
  }
}

/** `attention`: the page's layout is told when an answer comes and when a question waits (a phone shows one pane). */
export function mountChat(root: HTMLElement, viewer: ViewerHandle, attention?: { answered(): void; asked(): void }): void {
  const ticker = new Ticker();
  const transcript = new Transcript();
  const panel = h("div", { class: "chat-panel" });
  // Dialogs cover the messages only: the language switch and Stop stay within reach.
  const body = h("div", { class: "chat-body" }, transcript.el, transcript.jump);
  const desk = new QuestionDesk(body, ticker, () => update());
  let conversationId: string | null = null;
  let run: Run | null = null;
  let lastRun: Run | null = null; // the finished run, for the test hooks
  let sending = false; // a message on its way that starts a run
  let answering = false; // words on their way that answer the pick the run waits for
  let stopping = false;
  let failed = false;

  const langButtons = LANGS.map((lang) => {
    const button = h("button", { type: "button", "data-lang": lang, "data-testid": `lang-${lang}` }, LANG_NAMES[lang]);
    button.addEventListener("click", () => setLang(lang));
    return button;
  });
  const langSwitch = bindAttr(h("div", { class: "lang-switch", role: "group", "data-testid": "lang-switch" }, ...langButtons),
                              "aria-label", () => t("chat.language"));
  const newChat = tx(h("button", { type: "button", class: "link-button", "data-testid": "new-chat" }), "chat.new");
  const reconnecting = tx(h("div", { class: "chat-reconnecting", role: "status", "data-testid": "reconnecting", hidden: true }), "chat.reconnecting");
  const input = h("textarea", { class: "chat-input", rows: "2", "data-testid": "chat-input" });
  const placeholder = () => t(inWords() ? "chat.placeholder_pick" : "chat.placeholder");
  const inputLabel = () => t(inWords() ? "chat.input_label_pick" : "chat.input_label");
  bindAttr(input, "placeholder", placeholder);
  bindAttr(input, "aria-label", inputLabel);
  const sendButton = tx(h("button", { type: "submit", class: "primary", "data-testid": "chat-send" }), "chat.send");
  const stopButton = tx(h("button", { type: "button", class: "danger", "data-testid": "chat-stop", hidden: true }), "chat.stop");
  const form = h("form", { class: "chat-compose" }, input, h("div", { class: "chat-buttons" }, sendButton, stopButton));

  panel.append(
    h("header", { class: "chat-head" }, tx(h("h2", { class: "chat-title" }), "chat.title"), h("span", { class: "chat-spacer" }), newChat, langSwitch),
    reconnecting, body, form);
  root.replaceChildren(panel);

  function state(): ChatState {
    if (sending) return "running";
    if (run) return run.waiting ? "waiting" : "running";
    return failed ? "error" : "idle";
  }

  /** The run waits for a pick in the viewer and no question dialog is open: what is typed answers the pick. */
  function inWords(): boolean {
    return run !== null && run.waitingForPick && !desk.open && !stopping;
  }

  function update(): void {
    const running = sending || run !== null;
    const busy = running && !inWords();
    document.body.dataset.chatState = state();
    input.disabled = busy || answering;
    input.setAttribute("placeholder", placeholder());
    input.setAttribute("aria-label", inputLabel());
    sendButton.disabled = busy || answering;
    sendButton.hidden = busy;
    stopButton.hidden = !running;
    stopButton.disabled = !run || stopping;
    tx(stopButton, stopping ? "chat.stopping" : "chat.stop");
    newChat.disabled = running;
    reconnecting.hidden = !run?.reconnecting;
    for (const button of langButtons) button.setAttribute("aria-pressed", String(button.dataset.lang === getLang()));
  }

  async function start(text: string): Promise<ChatReply> {
    // The camera as the user sees the scene while they send: "the chair on the left" is left on their screen.
    const camera = viewer.camera();
    try {
      return await startRun(text, conversationId, getLang(), false, camera);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404 && conversationId)) throw error;
      forgetRuns(conversationId);
      conversationId = null; // the server restarted or forgot it: carry on in a new conversation
      remember(null);
      transcript.error(() => t("chat.lost"));
      return startRun(text, null, getLang(), false, camera);
    }
  }

  async function send(): Promise<void> {
    const text = input.value.trim();
    if (!text || sending || answering) return;
    if (run) {
      if (inWords()) await answerPick(text);
      return;
    }
    sending = true;
    failed = false;
    input.value = "";
    transcript.user(text);
    update();
    try {
      const reply = await start(text);
      if (reply.kind === "started") {
        conversationId = reply.run.conversation_id;
        follow(reply.run.run_id, reply.run.events_url, text);
      } else {
        // The conversation's run (followed in another tab of this conversation) was waiting for a pick: the
        // message answered it. Follow that run here too.
        conversationId = reply.pick.conversation_id;
        const said = reply.pick.message;
        transcript.note(() => said, "pick-note");
        if (reply.pick.run_id) follow(reply.pick.run_id, `/api/runs/${encodeURIComponent(reply.pick.run_id)}/events`);
      }
      remember(conversationId);
    } catch (error) {
      failed = true;
      input.value = text; // nothing was sent: give the words back
      const detail = error instanceof ApiError ? error.serverMessage : error instanceof Error ? error.message : String(error);
      if (error instanceof ApiError && error.code === "run_in_progress") transcript.error(() => t("chat.busy"));
      else if (error instanceof ApiError && error.status === 0) transcript.error(() => t("chat.unreachable", { detail }));
      else transcript.error(() => t("chat.refused", { detail }));
    } finally {
      sending = false;
      update();
    }
  }

  /** Words typed while the run waits for a pick: the server reads them as the answer to that pick (or refuses). */
  async function answerPick(text: string): Promise<void> {
    answering = true;
    input.value = "";
    transcript.user(text);
    update();
    try {
      // answersPick: if the pick ended just before the words came, the server refuses them (409) rather than
      // taking "the red one" for a new question.
      const reply = await startRun(text, conversationId, getLang(), true, viewer.camera());
      if (reply.kind === "picked") {
        const said = reply.pick.message; // the run's events bring the pick itself (selection_received / _cancelled)
        transcript.note(() => said, "pick-note");
      }
    } catch (error) {
      const detail = error instanceof ApiError ? error.serverMessage : error instanceof Error ? error.message : String(error);
      if (error instanceof ApiError && error.status === 422) {
        transcript.error(() => detail); // what the words pick, and what would fit; the pick still waits
      } else if (error instanceof ApiError && [404, 409, 410].includes(error.status)) {
        transcript.error(() => t("chat.pick_closed", { detail })); // answered meanwhile, expired, or the run moved on
      } else if (error instanceof ApiError && error.status === 0) {
        if (!input.value) input.value = text; // nothing was sent: give the words back
        transcript.error(() => t("chat.unreachable", { detail }));
      } else {
        transcript.error(() => t("chat.refused", { detail }));
      }
    } finally {
      answering = false;
      update();
      if (inWords()) input.focus();
    }
  }

  /** Show a run's events as they come (from its first event), until its final answer; `query`: what it answers. */
  function follow(runId: string, eventsUrl: string, query: string | null = null): void {
    run = new Run(runId, eventsUrl, {
      transcript, ticker, viewer, desk, attention,
      recorder: conversationId ? new RunRecorder(conversationId, runId, query) : null,
      changed: update,
      ended: (ended) => {
        if (run !== ended) return;
        lastRun = ended;
        failed = ended.final === null || ended.final.status === "error";
        run = null;
        stopping = false;
        update();
        input.focus();
      },
    });
    run.start();
  }

  /** After a reload: the tab's conversation so far, and the run still answering (its events replayed). */
  async function restore(id: string): Promise<void> {
    sending = true;
    update();
    try {
      const state = await getConversation(id);
      conversationId = state.conversation_id;
      const kept = pairTurns(state.turns, keptRuns(id));
      state.turns.forEach((turn, i) => {
        transcript.user(turn.query);
        // The cards of the run, as it showed them (kept in this tab), then the answer as the server keeps it.
        const past = new RunView(transcript, ticker, null);
        for (const event of kept[i]?.events ?? []) if (event.type !== "final") past.show(event);
        past.settle();
        const status = isFinalStatus(turn.status) ? turn.status : "error";
        past.final({ type: "final", ts: "", status, answer: turn.answer, codes: turn.codes });
      });
      if (state.running) {
        const message = await getRunMessage(state.running);
        transcript.user(message);
        follow(state.running, `/api/runs/${state.running}/events`, message);
      }
    } catch {
      remember(null); // the server restarted or forgot it: the next message starts a new conversation
      forgetRuns(id);
      conversationId = null;
    } finally {
      sending = false;
      update();
    }
  }

  async function stop(): Promise<void> {
    if (!run || stopping) return;
    stopping = true;
    update();
    try {
      await stopRun(run.runId);
    } catch {
      // already finished (409) or unreachable: the stream's final event settles it either way
    }
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void send();
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  });
  stopButton.addEventListener("click", () => void stop());
  newChat.addEventListener("click", () => {
    if (run || sending || answering) return;
    if (conversationId) forgetRuns(conversationId);
    conversationId = null;
    remember(null);
    failed = false;
    transcript.clear();
    update();
    input.focus();
  });
  onLangChange(() => {
    relocalize(root);
    update();
  });

  window.sceneChat = {
    get conversationId() { return conversationId; },
    get runId() { return (run ?? lastRun)?.runId ?? null; },
    get reconnects() { return (run ?? lastRun)?.stream.reconnects ?? 0; },
    receivedIds: () => [...((run ?? lastRun)?.stream.received ?? [])],
    dropStream: (hold = false) => run?.stream.drop(hold),
    resumeStream: () => run?.stream.resume(),
  };
  update();
  const saved = remembered();
  if (saved) void restore(saved);
}
