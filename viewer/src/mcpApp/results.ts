// What a tool result asks the MCP App page to show, read from its structured content (mcp_server/models.py):
// ask's outcome (AskOutcome: the answer, or with `selection_required` the pick to make), visualize's result
// (scene_agent/tools/visualize.py VisOutput: the view or the pick it opened), or wait_for_selection's (WaitOutcome:
// still waiting, or done with the `ask` or `visualize` result inside). A result without structured content shows
// its text.

/** An answer to show under the viewer, and what the viewer then shows (as the chat's answers do: chat/run.ts). */
export interface AnswerShown {
  text: string;
  /** ask's status (answered, not_found, cancelled, timeout, error), or "error" for a failed call. */
  status: string;
  /** The rooms and objects it is about. */
  codes: string[];
  /** The view it names ("show me room 0-7"), a viewer URL; null: none. */
  url: string | null;
}

export interface ResultShown {
  /** A viewer URL to open as it is: a pick to make (pick.viewer_url), or the view or the pick visualize opened. */
  open: string | null;
  answer: AnswerShown | null;
  /** The pick sessions it names (an answer's own picks: the viewer may keep them shown, viewer/app/follow.ts). */
  sessions: string[];
  /** Words in it that say which language to show: a pick's prompt, the answer. */
  words: string[];
}

type Json = Record<string, unknown>;

/** The notification's params (a CallToolResult): structured content, else the text content. */
export interface ToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The text parts of a result's content, joined. */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.filter((c): c is Json => isJson(c) && c.type === "text").map((c) => text(c.text) ?? "").join("\n").trim();
}

/** The prompt a viewer URL carries (?prompt=), for the language. */
function promptOf(url: string | null): string | null {
  try {
    return url ? new URL(url).searchParams.get("prompt") : null;
  } catch {
    return null;
  }
}

function readStructured(result: Json): ResultShown {
  if (isJson(result.ask)) return readStructured(result.ask); // wait_for_selection, done
  if (isJson(result.visualize)) return readStructured(result.visualize);
  const pick = isJson(result.pick) ? result.pick : null;
  const url = text(result.viewer_url);
  const status = text(result.status);
  const sessions = [pick?.session_id, result.session_id].filter((id): id is string => typeof id === "string");
  const words = [text(pick?.prompt), text(result.answer), promptOf(url)].filter((w): w is string => w !== null);
  if (pick) return { open: text(pick.viewer_url), answer: null, sessions, words };
  const answer = text(result.answer);
  if (answer !== null && status !== "selection_required") {
    return { open: null, answer: { text: answer, status: status ?? "answered", codes: strings(result.codes), url }, sessions, words };
  }
  // visualize's view or pick; wait_for_selection still waiting names none
  return { open: url, answer: null, sessions, words };
}

/** What `result` shows: structured content as one of the results above, else its text as an answer. */
export function readResult(result: ToolResult): ResultShown {
  if (isJson(result.structuredContent) && !result.isError) return readStructured(result.structuredContent);
  const said = contentText(result.content);
  const answer = said ? { text: said, status: result.isError ? "error" : "answered", codes: [], url: null } : null;
  return { open: null, answer, sessions: [], words: said ? [said] : [] };
}

/** The string arguments of a tool call (the question asked), for the language. */
export function inputWords(args: unknown): string[] {
  return isJson(args) ? Object.values(args).filter((v): v is string => typeof v === "string") : [];
}
