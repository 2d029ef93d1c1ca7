// The chat endpoints of the API server (same origin): start a run, stop it, answer its questions.
import { getJson, postJson } from "../http";

export { ApiError } from "../http";

/** An answer to one question of a batch, as POST /api/questions/<id>/answer takes it. */
export interface AnswerBody {
  question_index: number;
  selected?: number[];
  text?: string;
}

export interface StartedRun {
  run_id: string;
  conversation_id: string;
  events_url: string;
}

/** Start a run for `message`; without a conversation id a new conversation begins. */
export function startRun(message: string, conversationId: string | null): Promise<StartedRun> {
  return postJson<StartedRun>("/api/chat", conversationId ? { message, conversation_id: conversationId } : { message });
}

/** Ask the server to stop a run (it ends with final status "cancelled"). */
export function stopRun(runId: string): Promise<unknown> {
  return postJson(`/api/runs/${encodeURIComponent(runId)}/stop`, {});
}

/** Answer a question dialog. */
export function answerQuestion(questionId: string, answers: AnswerBody[]): Promise<unknown> {
  return postJson(`/api/questions/${encodeURIComponent(questionId)}/answer`, { answers });
}

/** Cancel a question dialog, keeping the answers given so far. */
export function cancelQuestion(questionId: string, answers: AnswerBody[]): Promise<unknown> {
  return postJson(`/api/questions/${encodeURIComponent(questionId)}/cancel`, { answers });
}

/** A conversation as the server keeps it: its finished turns and the run answering now. */
export interface ConversationState {
  conversation_id: string;
  turns: { query: string; answer: string; status: "answered" | "not_found" | "cancelled" | "timeout" | "error"; codes: string[] }[];
  running: string | null;
}

export function getConversation(conversationId: string): Promise<ConversationState> {
  return getJson<ConversationState>(`/api/conversations/${encodeURIComponent(conversationId)}`);
}

/** The message a run answers (for a run picked up again after a reload). */
export function getRunMessage(runId: string): Promise<string> {
  return getJson<{ message: string }>(`/api/runs/${encodeURIComponent(runId)}`).then((state) => state.message);
}
