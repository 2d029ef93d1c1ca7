// What a tool call card says in one line: its arguments while it runs, then what it came to, as the
// server summed it up (each tool's result has its `human_summary()`, sent in the result event).
import type { Args, Summary } from "./events";
import { getLang } from "../i18n";

function short(value: unknown, limit = 40): string {
  let text = typeof value === "string" ? `"${value}"` : JSON.stringify(value);
  if (Array.isArray(value) && value.length > 6) text = `[${value.slice(0, 5).map((v) => JSON.stringify(v)).join(", ")}, … ${value.length}]`;
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** 'query="chair" multiple=true' — the arguments in one short line. */
export function argsSummary(args: Args): string {
  if (typeof args === "string") return args.length <= 80 ? args : `${args.slice(0, 79)}…`;
  return Object.entries(args)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${key}=${short(value)}`)
    .join(" ");
}

/** What a finished call came to, in the current language. */
export function resultSummary(summary: Summary): string {
  return summary[getLang()];
}
