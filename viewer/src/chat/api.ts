// The chat endpoints of the API server (same origin): start a run, stop it, answer its questions.
import { ApiError, getJson, postJson } from "../http";
import { getLang, type Lang } from "../i18n";

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

/** The message answered the pick the conversation's run was waiting for (200), as a Confirm or Cancel would. */
export interface PickAnswered {
  conversation_id: string;
  run_id: string;
  session_id: string;
  status: "confirmed" | "cancelled";
  codes: string[];
  /** The words as the server read them. */
  said: string;
  /** What was understood, for people (in the words' language). */
  message: string;
}

/** What POST /api/chat did with a message: started a run (202), or answered the pick its run waits for (200). */
export type ChatReply = { kind: "started"; run: StartedRun } | { kind: "picked"; pick: PickAnswered };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Send `message` to the conversation (a new one without an id): it starts a run, or, while the conversation's
 * run waits for a pick in the viewer, answers that pick in words. `lang` is the page's language (the answer's
 * language when the message shows none).
 */
export async function startRun(message: string, conversationId: string | null, lang: Lang = getLang(),
                               answersPick = false): Promise<ChatReply> {
  const request: Record<string, unknown> = { message, lang };
  if (conversationId) request.conversation_id = conversationId;
  if (answersPick) request.answers_pick = true;
  const body = await postJson<unknown>("/api/chat", request);
  if (isObject(body) && typeof body.run_id === "string" && typeof body.events_url === "string") {
    return { kind: "started", run: body as unknown as StartedRun };
  }
  if (isObject(body) && typeof body.session_id === "string" && (body.status === "confirmed" || body.status === "cancelled")) {
    return { kind: "picked", pick: body as unknown as PickAnswered };
  }
  throw new ApiError("data", "/api/chat", 200, "bad_reply", "the server's reply is neither a run started nor a pick answered");
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
