// The events of an agent run as the server streams them. Their types are generated from the server's
// OpenAPI document (scene_agent/agent/events.py → api_server/openapi.py → src/generated/api.ts, by
// `npm run types`), so the page's build fails when they drift apart. Every event has a `type` and an ISO
// timestamp `ts`; the three events of one tool call share its `id`.
import type { components } from "../generated/api";

type Schemas = components["schemas"];

/** Any event of the stream, told apart by `type` (and a tool call's result by `tool_name`). */
export type AgentEvent = Schemas["AgentEvent"];

export type ToolCallStart = Schemas["ToolCallStart"];
/** A tool call's result: the typed `result` of its tool and the server's one-line `summary` of it. */
export type ToolCallResult = Schemas["ToolCallResult"];
export type ToolCallError = Schemas["ToolCallError"];
export type SelectionRequired = Schemas["SelectionRequired"];
export type SelectionExtended = Schemas["SelectionExtended"];
export type SelectionReceived = Schemas["SelectionReceived"];
export type SelectionTimeout = Schemas["SelectionTimeout"];
export type SelectionCancelled = Schemas["SelectionCancelled"];
export type QuestionEvent = Schemas["Question"];
export type QuestionAnswered = Schemas["QuestionAnswered"];
export type MessageEvent = Schemas["Message"];
export type FinalEvent = Schemas["Final"];

/** A tool call's arguments: an object, or the text given when it was not valid JSON. */
export type Args = ToolCallStart["args"];
export type FinalStatus = FinalEvent["status"];
export type PickedItem = Schemas["PickedItem"];
/** One question of a batch (scene_agent/tools/question.py QuestionItem, after validation). */
export type QuestionItem = Schemas["QuestionItem"];
/** What a finished call came to, in English and Chinese; `tone` picks the card's icon. */
export type Summary = Schemas["Summary"];
/** One colour cluster of a `color` result (scene_agent/tools/color.py ColorCluster). */
export type ColorCluster = Schemas["ColorCluster"];
/** A `color` result, whose clusters the swatches show. */
export type ColorResult = Schemas["ColorResult"];

/** Milliseconds since the epoch of an event's ISO timestamp (NaN when unreadable). */
export function timeOf(iso: string): number {
  return Date.parse(iso);
}
