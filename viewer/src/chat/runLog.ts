// What each run of this tab's conversation showed — its tool calls, selection notices, messages, question
// outcomes — kept in sessionStorage beside the conversation id (conversation.ts), so that a reload shows the cards
// again, not only the questions and answers the server keeps. Per tab, gone with it; a full storage only
// means fewer runs are kept.
import type { AgentEvent } from "./events";

const PREFIX = "scene-agent.runs.";
const MAX_RUNS = 30;
// Events worth showing again (question dialogs are not re-asked: their outcome is a note).
const KEPT = new Set<AgentEvent["type"]>([
  "tool_call_start", "tool_call_result", "tool_call_error", "selection_required", "selection_extended", "selection_received",
  "selection_timeout", "selection_cancelled", "question", "question_answered", "message", "final",
]);

export interface RunRecord {
  runId: string;
  /** The message the run answered (null when this tab did not send it). */
  query: string | null;
  events: AgentEvent[];
}

function read(conversationId: string): RunRecord[] {
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(PREFIX + conversationId) ?? "[]") as unknown;
    return Array.isArray(saved) ? (saved as RunRecord[]).filter((r) => r && typeof r.runId === "string" && Array.isArray(r.events)) : [];
  } catch {
    return [];
  }
}

function write(conversationId: string, records: RunRecord[]): void {
  let kept = records.slice(-MAX_RUNS);
  while (kept.length) {
    try {
      window.sessionStorage.setItem(PREFIX + conversationId, JSON.stringify(kept));
      return;
    } catch {
      kept = kept.slice(1); // full: the oldest runs go first
    }
  }
}

/** The runs kept for a conversation, oldest first. */
export function keptRuns(conversationId: string): RunRecord[] {
  return read(conversationId);
}

/** Forget a conversation's runs (New chat, or the server forgot the conversation). */
export function forgetRuns(conversationId: string): void {
  try {
    window.sessionStorage.removeItem(PREFIX + conversationId);
  } catch {
    // nothing kept then
  }
}

/** Keep a run's events as they come (a run followed again after a reload starts its record over). */
export class RunRecorder {
  private readonly record: RunRecord;

  constructor(private readonly conversationId: string, runId: string, query: string | null) {
    const records = read(conversationId);
    const earlier = records.find((r) => r.runId === runId);
    this.record = { runId, query: query ?? earlier?.query ?? null, events: [] };
    write(conversationId, [...records.filter((r) => r.runId !== runId), this.record]);
  }

  add(event: AgentEvent): void {
    if (!KEPT.has(event.type)) return;
    this.record.events.push(event);
    const records = read(this.conversationId).filter((r) => r.runId !== this.record.runId);
    write(this.conversationId, [...records, this.record]);
  }
}

/** Pair the server's finished turns with the runs kept for them, in order (a turn without one gets null). */
export function pairTurns<T extends { query: string }>(turns: T[], runs: RunRecord[]): (RunRecord | null)[] {
  let next = 0;
  return turns.map((turn) => {
    for (let i = next; i < runs.length; i++) {
      if (runs[i].query === turn.query && runs[i].events.some((e) => e.type === "final")) {
        next = i + 1;
        return runs[i];
      }
    }
    return null;
  });
}
