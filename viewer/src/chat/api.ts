// The chat endpoints of the API server (same origin): start a run, stop it, answer its questions.
// The bodies' types are generated from the server's OpenAPI document (api_server/chat_bodies.py →
// src/generated/api.ts, by `npm run types`).
import type { SceneCamera } from "../contracts";
import type { components } from "../generated/api";
import { ApiError, getJson, postJson } from "../http";
import { getLang, type Lang } from "../i18n";

export { ApiError } from "../http";

type Schemas = components["schemas"];

/** An answer to one question of a batch, as POST /api/questions/<id>/answer takes it. */
export type AnswerBody = Schemas["AnswerGiven"];

export type StartedRun = Schemas["ChatStarted"];

/** The message answered the pick the conversation's run was waiting for (200), as a Confirm or Cancel would:
 *  `said` is the words as the server read them, `message` what was understood, for people. */
export type PickAnswered = Schemas["PickAnswered"];

/** What POST /api/chat did with a message: started a run (202), or answered the pick its run waits for (200). */
export type ChatReply = { kind: "started"; run: StartedRun } | { kind: "picked"; pick: PickAnswered };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Send `message` to the conversation (a new one without an id): it starts a run, or, while the conversation's
 * run waits for a pick in the viewer, answers that pick in words. `lang` is the page's language (the answer's
 * language when the message shows none); `camera` the viewer's as the user sees the scene now ("on the left":
 * left on the screen).
 */
export async function startRun(message: string, conversationId: string | null, lang: Lang = getLang(),
                               answersPick = false, camera: SceneCamera | null = null): Promise<ChatReply> {
  const request: Schemas["ChatRequest"] = { message, lang };
  if (conversationId) request.conversation_id = conversationId;
  if (answersPick) request.answers_pick = true;
  if (camera) request.camera = camera;
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
  const body: Schemas["QuestionAnswers"] = { answers };
  return postJson(`/api/questions/${encodeURIComponent(questionId)}/answer`, body);
}

/** Cancel a question dialog, keeping the answers given so far. */
export function cancelQuestion(questionId: string, answers: AnswerBody[]): Promise<unknown> {
  const body: Schemas["QuestionAnswers"] = { answers };
  return postJson(`/api/questions/${encodeURIComponent(questionId)}/cancel`, body);
}

/** A conversation as the server keeps it: its finished turns, what was asked in it, the run answering now. */
export type ConversationState = Schemas["ConversationState"];

export function getConversation(conversationId: string): Promise<ConversationState> {
  return getJson<ConversationState>(`/api/conversations/${encodeURIComponent(conversationId)}`);
}

/** The message a run answers (for a run picked up again after a reload). */
export function getRunMessage(runId: string): Promise<string> {
  return getJson<Schemas["RunState"]>(`/api/runs/${encodeURIComponent(runId)}`).then((state) => state.message);
}
