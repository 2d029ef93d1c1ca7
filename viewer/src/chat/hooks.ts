// `window.sceneChat`: the chat's test and debugging hooks, a read-only view of the chat (chat.ts), and a way to
// drop the run's event stream as the network would (stream.ts).
import type { Chat } from "./chat";

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

export function chatHooks(chat: Chat): ChatHooks {
  const shown = () => chat.run ?? chat.lastRun;
  return {
    get conversationId() { return chat.conversation.id; },
    get runId() { return shown()?.runId ?? null; },
    get reconnects() { return shown()?.stream.reconnects ?? 0; },
    receivedIds: () => [...(shown()?.stream.received ?? [])],
    dropStream: (hold = false) => chat.run?.stream.drop(hold),
    resumeStream: () => chat.run?.stream.resume(),
  };
}
