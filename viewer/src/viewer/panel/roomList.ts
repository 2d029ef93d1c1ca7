// The side panel's list of rooms, for a building of hundreds of them: only the floor shown (all floors: one section
// per floor), and within a floor one group per unit when the rooms' names say which they are in — "Kitchen, flat 2B"
// and "Bathroom, flat 2B" go under "flat 2B" (a trailing ", <unit>" that several rooms share). panel.ts draws the
// rows; their headings are drawn here.

import { getLang } from "../../i18n";
import { t } from "../strings";
import { h } from "./dom";
import type { Row } from "./panel";

// A unit as names say it ("flat 2B"): in Chinese "公寓 2B", as the server's Chinese names say it
// (scene_agent/language/display_names.py).
const UNIT = /^(?:flat|apartment|apt|unit|suite)\s+(\S+)$/i;

/** A unit's heading in the language shown. */
function unitHeading(unit: string): string {
  const found = getLang() === "zh" ? UNIT.exec(unit) : null;
  return found ? `公寓 ${found[1]}` : unit;
}

export interface Section {
  /** "floor:2", "unit:2:flat 2B", "loose:2" (rows under no heading of their own). */
  key: string;
  /** A floor's heading (its code), or a unit's (its words); neither for loose rows. */
  floor: string | null;
  unit: string | null;
  rows: Row[];
}

/** The trailing part of a name after its last comma ("flat 2B" of "Kitchen, flat 2B"), or null. */
export function unitPart(name: string | null | undefined): string | null {
  const at = name?.lastIndexOf(",") ?? -1;
  const unit = at > 0 ? name!.slice(at + 1).trim() : "";
  return unit || null;
}

/** Units shared by at least two rooms: only those make a group (a lone "Hall, north" is just a name). */
function sharedUnits(rows: Row[]): Set<string> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const unit = unitPart(row.name);
    if (unit) counts.set(unit, (counts.get(unit) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n >= 2).map(([unit]) => unit));
}

/** One floor's rooms: those in no unit first, then a group per unit in the order they first appear. */
function floorSections(rows: Row[], floor: string, units: Set<string>): Section[] {
  const loose: Row[] = [];
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const unit = unitPart(row.name);
    if (unit && units.has(unit)) groups.set(unit, [...(groups.get(unit) ?? []), row]);
    else loose.push(row);
  }
  const sections: Section[] = loose.length ? [{ key: `loose:${floor}`, floor: null, unit: null, rows: loose }] : [];
  for (const [unit, grouped] of groups) sections.push({ key: `unit:${floor}:${unit}`, floor: null, unit, rows: grouped });
  return sections;
}

/** The list's sections: the rooms of `floor` grouped by unit, or (no floor chosen) every floor's under its heading. */
export function roomSections(rows: Row[], floor: string | null): Section[] {
  const units = sharedUnits(rows);
  const floors = [...new Set(rows.map((r) => r.floor ?? ""))];
  if (floor !== null) return floorSections(rows.filter((r) => r.floor === floor), floor, units);
  if (floors.length < 2) return floorSections(rows, floors[0] ?? "", units);
  return floors.flatMap((code) => [
    { key: `floor:${code}`, floor: code, unit: null, rows: [] },
    ...floorSections(rows.filter((r) => (r.floor ?? "") === code), code, units),
  ]);
}

/**
 * Append `rows` to `list`: under their floor's and unit's headings when `floor` is given (null: all floors), all of
 * them as they are when it is undefined (candidates, a view's focus). Each row is drawn by `addRow`; returns the
 * headings with their words, which follow the language.
 */
export function appendSections(list: HTMLElement, floor: string | null | undefined, rows: Row[],
                               addRow: (row: Row) => void): { el: HTMLElement; text: () => string }[] {
  const headings: { el: HTMLElement; text: () => string }[] = [];
  const sections = floor === undefined ? [{ key: "", floor: null, unit: null, rows }] : roomSections(rows, floor);
  for (const section of sections) {
    const { floor: code, unit } = section;
    const text = code !== null ? () => t("floorN", { code }) : unit !== null ? () => unitHeading(unit) : null;
    if (text) {
      const kind = code !== null ? "sv-group-floor" : "sv-group-unit";
      const el = h("li", { class: `sv-group ${kind}`, "data-group": section.key }, text());
      headings.push({ el, text });
      list.append(el);
    }
    for (const row of section.rows) addRow(row);
  }
  return headings;
}
