// The chat panel beside the viewer: type a question, watch the agent's tool calls as cards,
// pick in the viewer (or say which one in words, typed here) or answer question dialogs when it asks, read the
// answer. One run at a time per conversation; the conversation id is sent back so later turns can refer to earlier
// ones. While the run waits for a pick, the input stays open: what is typed then answers the pick, not a new question.
// A reload shows the tab's conversation again: its turns from the server, with the cards each run showed (runLog.ts).
// When a run ends the viewer shows what its answer is about (run.ts), and a scene code in an answer is a button that
// frames it there (codeLinks.ts).
// Its parts: the panel's DOM (panel.ts), what typing and sending do (chat.ts), the tab's conversation
// (conversation.ts), one run followed (run.ts), and `window.sceneChat` (hooks.ts).
import "./chat.css";
import type { ViewerHandle } from "../contracts";
import { onLangChange } from "../i18n";
import { Chat } from "./chat";
import { CodeLinks } from "./codeLinks";
import { rememberedConversation } from "./conversation";
import { QuestionDesk } from "./dialog";
import { Ticker, relocalize } from "./dom";
import { chatHooks } from "./hooks";
import { ChatPanel } from "./panel";
import { Transcript } from "./transcript";

export type { ChatState } from "./chat";
export type { ChatHooks } from "./hooks";

/** What the rest of the page may do with the chat: put words into its input, for the user to send or change. */
export interface ChatInput {
  fill(text: string): void;
}

/** `attention`: the page's layout is told when an answer comes and when a question waits (a phone shows one pane). */
export function mountChat(root: HTMLElement, viewer: ViewerHandle, attention?: { answered(): void; asked(): void }): ChatInput {
  const ticker = new Ticker();
  // A code clicked in an answer is framed in the viewer (which shows its own load errors).
  const transcript = new Transcript(new CodeLinks((code) => void viewer.frame(code).catch(() => undefined)));
  const panel = new ChatPanel(root, transcript, {
    send: () => void chat.send(),
    stop: () => void chat.stop(),
    newChat: () => chat.newChat(),
  });
  const desk = new QuestionDesk(panel.body, ticker, () => chat.update());
  const chat = new Chat({ panel, transcript, ticker, desk, viewer, attention });
  onLangChange(() => {
    relocalize(root);
    chat.update();
  });
  window.sceneChat = chatHooks(chat);
  chat.update();
  const saved = rememberedConversation();
  if (saved) void chat.restore(saved);
  return {
    fill(text) {
      panel.input.value = text;
      panel.input.focus({ preventScroll: true });
    },
  };
}
