// The tab's conversation: its id, sent back with every message so that later turns can refer to earlier ones,
// and kept in sessionStorage (per tab, gone with it) so that a reload carries on with it, beside the runs this tab
// showed in it (runLog.ts). A conversation the server forgot (it restarted) is dropped: the message that found it
// gone starts a new one.
import type { SceneCamera } from "../contracts";
import { getLang } from "../i18n";
import { ApiError, startRun, type ChatReply } from "./api";
import { forgetRuns } from "./runLog";

const CONVERSATION_KEY = "scene-agent.conversation";

/** The conversation a reload of this tab carries on with, if any. */
export function rememberedConversation(): string | null {
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

export class Conversation {
  /** Null: the next message starts a new conversation. */
  id: string | null = null;

  /** Keep the id for a reload. */
  remember(): void {
    remember(this.id);
  }

  /** Start over: the next message starts a new conversation; `id`'s kept runs are dropped. */
  forget(id = this.id): void {
    if (id) forgetRuns(id);
    this.id = null;
    remember(null);
  }

  /** Send a message in this conversation (see api.ts startRun); `lost` is told when the server had forgotten it. */
  async send(text: string, camera: SceneCamera | null, lost: () => void): Promise<ChatReply> {
    try {
      return await startRun(text, this.id, getLang(), false, camera);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404 && this.id)) throw error;
      this.forget(); // the server restarted or forgot it: carry on in a new conversation
      lost();
      return startRun(text, null, getLang(), false, camera);
    }
  }

  /** Words that answer the pick the conversation's run waits for (the server refuses them once it is over). */
  answerPick(text: string, camera: SceneCamera | null): Promise<ChatReply> {
    return startRun(text, this.id, getLang(), true, camera);
  }
}
