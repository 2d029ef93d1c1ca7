// The chat endpoints of the API server (same origin): start a run, stop it, answer its questions.

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

/** A request the server refused (`status` 0 = it could not be reached); `code` is its `error` field. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

async function post<T>(path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", error instanceof Error ? error.message : String(error));
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // a proxy's HTML error page: keep the status line as the message
  }
  if (!response.ok) {
    const error = (data ?? {}) as { error?: string; message?: string };
    throw new ApiError(response.status, error.error ?? `http_${response.status}`,
                       error.message ?? `${response.status} ${response.statusText}`.trim());
  }
  return data as T;
}

async function get<T>(path: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" } });
  } catch (error) {
    throw new ApiError(0, "network", error instanceof Error ? error.message : String(error));
  }
  const data = (await response.json().catch(() => null)) as { error?: string; message?: string } | null;
  if (!response.ok) throw new ApiError(response.status, data?.error ?? `http_${response.status}`, data?.message ?? response.statusText);
  return data as T;
}

/** A conversation as the server keeps it: its finished turns and the run answering now. */
export interface ConversationState {
  conversation_id: string;
  turns: { query: string; answer: string; status: "answered" | "not_found" | "cancelled" | "timeout" | "error"; codes: string[] }[];
  running: string | null;
}

export function getConversation(conversationId: string): Promise<ConversationState> {
  return get<ConversationState>(`/api/conversations/${encodeURIComponent(conversationId)}`);
}

/** The message a run answers (for a run picked up again after a reload). */
export function getRunMessage(runId: string): Promise<string> {
  return get<{ message: string }>(`/api/runs/${encodeURIComponent(runId)}`).then((state) => state.message);
}

/** Start a run for `message`; without a conversation id a new conversation begins. */
export function startRun(message: string, conversationId: string | null): Promise<StartedRun> {
  return post<StartedRun>("/api/chat", conversationId ? { message, conversation_id: conversationId } : { message });
}

/** Ask the server to stop a run (it ends with final status "cancelled"). */
export function stopRun(runId: string): Promise<unknown> {
  return post(`/api/runs/${encodeURIComponent(runId)}/stop`, {});
}

/** Answer a question dialog. */
export function answerQuestion(questionId: string, answers: AnswerBody[]): Promise<unknown> {
  return post(`/api/questions/${encodeURIComponent(questionId)}/answer`, { answers });
}

/** Cancel a question dialog, keeping the answers given so far. */
export function cancelQuestion(questionId: string, answers: AnswerBody[]): Promise<unknown> {
  return post(`/api/questions/${encodeURIComponent(questionId)}/cancel`, { answers });
}
