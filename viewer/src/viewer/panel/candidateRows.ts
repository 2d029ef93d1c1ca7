// The candidate list of a pick in words that tell the candidates apart: an object's row says its colour, its label
// and its room ("red chair · Kitchen, flat 2B"), a room's row its code and name ("0-2 · Lounge"), each with a swatch of its own measured
// colour; rows are grouped under a heading per room (objects) or per floor (rooms), in the order of the candidates.
// In Chinese the rows use the manifest's Chinese labels and room names and Chinese colour words. What the filter box
// matches (every word of a row in both languages, the codes, the floor) is said here too. candidateList.ts draws it.

import { getLang } from "../../i18n";
import { candidateGroupKey, type Item, type ViewModel } from "../data/model";
import { t, type StringKey } from "../strings";

type Text = () => string;

export interface CandidateRow {
  code: string;
  kind: "room" | "object";
  /** Its dominant colour ('#rrggbb'), or null when it was not measured. */
  swatch: string | null;
  text: Text;
  /** A room with objects in the view: it can be looked inside. */
  drill: boolean;
  /** Lower-case words a filter matches, in the language shown. */
  search: Text;
}

export interface CandidateGroup {
  /** A room's code (objects), or "floor:<code>" (rooms): candidateGroupKey. */
  key: string;
  title: Text;
  /** The code shown beside the title (a room's), or null. */
  code: string | null;
  rows: CandidateRow[];
}

const BASIC_COLOURS = ["black", "white", "gray", "red", "orange", "yellow", "green", "blue", "purple", "pink", "brown"];

/** A basic colour term ('red', 'gray') in the language shown; the term itself when the viewer has no word for it. */
export function colourWord(basic: string): string {
  const term = basic === "grey" ? "gray" : basic;
  return BASIC_COLOURS.includes(term) ? t(`colour_${term}` as StringKey) : basic;
}

const zh = () => getLang() === "zh";

/** An object's label, or a room's type, in the language shown. */
function labelOf(item: Item): string {
  return zh() && item.labelZh ? item.labelZh : item.label;
}

/** The room an object stands in, or a room itself: its name in the language shown. */
function placeOf(item: Item): string {
  if (item.kind === "room") return (zh() ? item.nameZh : null) ?? item.name ?? labelOf(item);
  return (zh() ? item.nameZh : null) ?? item.roomName ?? item.room;
}

function rowOf(item: Item, drill: boolean): CandidateRow {
  const colour = item.colour;
  const text = item.kind === "room" ? () => `${item.code} · ${placeOf(item)}`
    : colour ? () => t("rowObject", { colour: colourWord(colour.basic), label: labelOf(item), place: placeOf(item) })
      : () => t("rowPlain", { label: labelOf(item), place: placeOf(item) });
  const words = () => [text(), item.code, item.room, item.label, item.labelZh, item.name, item.roomName, item.nameZh,
                       colour?.basic, colour?.name, t("floorN", { code: item.floor })];
  return { code: item.code, kind: item.kind, swatch: colour?.hex ?? null, text, drill,
           search: () => words().filter((w) => w).join(" ").toLowerCase() };
}

/** The candidates of a pick, grouped (groups in the order of their first candidate). */
export function candidateGroups(model: ViewModel): CandidateGroup[] {
  const byCode = new Map(model.items.map((i) => [i.code, i]));
  const groups = new Map<string, CandidateGroup>();
  for (const code of model.selection?.candidates ?? []) {
    const item = byCode.get(code);
    if (!item) continue;
    const key = candidateGroupKey(item);
    let group = groups.get(key);
    if (!group) {
      group = item.kind === "room" ? { key, title: () => t("floorN", { code: item.floor }), code: null, rows: [] }
        : { key, title: () => placeOf(item), code: item.room, rows: [] };
      groups.set(key, group);
    }
    group.rows.push(rowOf(item, item.kind === "room" && model.items.some((i) => i.kind === "object" && i.room === code)));
  }
  return [...groups.values()];
}

/** Whether a row's words hold every word typed (any order, any case). */
export function matches(search: string, typed: string): boolean {
  const words = typed.toLowerCase().split(/[\s,，、]+/).filter((w) => w);
  return words.every((w) => search.includes(w));
}
