// The events of an agent run as the server streams them (scene_agent/agent/events.py is the
// source of truth). Every event has a `type` and an ISO timestamp `ts`; the three events of one tool
// call share its `id`.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Args = JsonObject | string;
export type FinalStatus = "answered" | "not_found" | "cancelled" | "timeout" | "error";

interface Base {
  ts: string;
}

export interface ToolCallStart extends Base {
  type: "tool_call_start";
  id: string;
  tool_name: string;
  args: Args;
}

export interface ToolCallResult extends Base {
  type: "tool_call_result";
  id: string;
  tool_name: string;
  args: Args;
  result: JsonObject;
  duration_ms: number;
}

export interface ToolCallError extends Base {
  type: "tool_call_error";
  id: string;
  tool_name: string;
  args: Args;
  error: { code: string; message: string };
  status: "failed" | "timeout" | "cancelled";
  duration_ms: number;
}

export interface SelectionRequired extends Base {
  type: "selection_required";
  tool_call_id: string;
  session_id: string;
  viewer_url: string;
  timeout: number;
  expires_at: string;
  candidates: string[];
  prompt: string;
  multiple: boolean;
}

export interface PickedItem {
  itemCode: string;
  type: "room" | "object";
  label: string;
}

export interface SelectionReceived extends Base {
  type: "selection_received";
  tool_call_id: string;
  session_id: string;
  selections: PickedItem[];
  codes: string[];
  /** What the user typed in the chat, when the pick was made in words. */
  words?: string | null;
}

export interface SelectionTimeout extends Base {
  type: "selection_timeout";
  tool_call_id: string;
  session_id: string;
  timeout: number;
}

export interface SelectionCancelled extends Base {
  type: "selection_cancelled";
  tool_call_id: string;
  session_id: string;
  cancelled_by: "viewer" | "words" | "caller" | "invalid";
  reason?: string | null;
}

/** One question of a batch (scene_agent/tools/question.py QuestionItem, after validation). */
export interface QuestionItem {
  header: string;
  question: string;
  options?: string[] | null;
  multiple?: boolean;
  allow_free_text?: boolean | null;
}

export interface QuestionEvent extends Base {
  type: "question";
  tool_call_id: string;
  question_id: string;
  questions: QuestionItem[];
  timeout: number;
}

export interface QuestionAnswered extends Base {
  type: "question_answered";
  tool_call_id: string;
  question_id: string;
  status: "answered" | "cancelled" | "timeout" | "no_ui";
  answers: { question_index: number; header?: string; answer?: string | string[] }[];
}

export interface MessageEvent extends Base {
  type: "message";
  text: string;
}

export interface FinalEvent extends Base {
  type: "final";
  status: FinalStatus;
  answer: string;
  codes: string[];
  viewer_url?: string | null;
}

export type AgentEvent =
  | ToolCallStart | ToolCallResult | ToolCallError
  | SelectionRequired | SelectionReceived | SelectionTimeout | SelectionCancelled
  | QuestionEvent | QuestionAnswered | MessageEvent | FinalEvent;

/** One colour cluster of a `color` result (scene_agent/tools/color.py ColorCluster). */
export interface ColorCluster {
  name: string;
  basic: string;
  hex: string;
  share: number;
  part?: string | null;
}

/** The parts of a `color` result the swatches show. */
export interface ColorResult {
  code: string;
  kind: "room" | "object";
  label: string;
  clusters: ColorCluster[];
  summary: string;
  reason?: string | null;
}

/** Milliseconds since the epoch of an event's ISO timestamp (NaN when unreadable). */
export function timeOf(iso: string): number {
  return Date.parse(iso);
}
