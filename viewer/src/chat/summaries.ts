// What a tool call card says in one line: its arguments while it runs, then what it found.
import type { Args, Json, JsonObject } from "./events";
import { getLang } from "../i18n";
import { listCodes } from "./dom";
import { t } from "./strings";

function short(value: Json, limit = 40): string {
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

function objects(value: Json | undefined): JsonObject[] {
  return Array.isArray(value) ? value.filter((v): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v)) : [];
}

/** A localized clause per colour: 'red 76 %, black 24 %'. */
export function colorPhrase(result: JsonObject): string {
  return objects(result.clusters)
    .slice(0, 4)
    .map((c) => `${t(`basic.${String(c.basic)}` as Parameters<typeof t>[0])} ${t("sw.share", { pct: Math.round(Number(c.share) * 100) })}`)
    .join(", ");
}

/** What a finished call found, in the current language. */
export function resultSummary(tool: string, result: JsonObject): string {
  switch (tool) {
    case "find": {
      const codes = objects(result.candidates).map((c) => String(c.code ?? "?"));
      return codes.length ? t("sum.found", { n: codes.length, codes: listCodes(codes) }) : String(result.message ?? t("sum.found_none"));
    }
    case "color": {
      const phrase = colorPhrase(result);
      if (!phrase) return String(result.reason ?? t("sum.color_none"));
      // the tool's own sentence is English; in Chinese, say it from the clusters
      return getLang() === "en" && typeof result.summary === "string" ? result.summary : `${result.code}：${phrase}`;
    }
    case "volume": {
      const m3 = result.volume_m3;
      return typeof m3 === "number" ? t("sum.volume", { code: String(result.code), m3: m3.toPrecision(3) })
        : t("sum.volume_none", { code: String(result.code ?? "?") });
    }
    case "visualize": {
      const selection = result.selection as JsonObject | null | undefined;
      if (!selection) return String(result.error ?? result.name ?? t("sum.vis_shown"));
      if (selection.status === "confirmed") {
        return t("sum.vis_picked", { codes: listCodes(objects(selection.selections).map((p) => String(p.itemCode))) });
      }
      return selection.status === "timeout" ? t("sum.vis_timeout") : t("sum.vis_nothing", { status: String(selection.status) });
    }
    case "question":
      return result.cancelled ? t("sum.q_cancelled") : String(result.summary ?? t("sum.q_answered"));
    default:
      return typeof result.summary === "string" ? result.summary : t("sum.done");
  }
}
