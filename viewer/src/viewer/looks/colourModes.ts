// Colour modes: the scan's true colours (the default: people pick by colour), or every item painted in
// its room's colour, or in its own, with a legend of what is shown. The palette avoids the highlight
// colours' roles: boxes and labels (looks.ts) mark candidates and picks, never the points' colours.

import { itemTitle, type Item, type ViewModel } from "../data/model";

export type ColourMode = "true" | "room" | "object";

/** What the view controls (viewControls.ts) let people choose about how the scene is drawn. */
export interface ViewOptions {
  colour: ColourMode;
  /** Rooms' own points (walls, floor, ceiling) hidden, objects kept: what is inside a room can be seen. */
  hideStructure: boolean;
}

export const DEFAULT_OPTIONS: ViewOptions = { colour: "true", hideStructure: false };

// Distinct on the dark background, in an order where neighbours (rooms in a row, a room's objects) differ.
export const PALETTE = [
  "#4363d8", "#3cb44b", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45", "#e6194b",
  "#469990", "#9a6324", "#dcbeff", "#ffe119", "#fabed4", "#aaffc3", "#808000", "#ffd8b1",
];
// A room's own structure in "by object": light grey, so that the objects' colours stand out.
const STRUCTURE = "#9a9da3";

export interface LegendEntry {
  code: string;
  name: string;
  color: string;
}

const indexes = new WeakMap<ViewModel, Map<string, number>>();

/** Each room's and each object's place in the model (rooms and objects counted apart), for its colour. */
function indexOf(model: ViewModel, code: string): number {
  let map = indexes.get(model);
  if (!map) {
    map = new Map();
    let rooms = 0;
    let objects = 0;
    for (const item of model.items) map.set(item.code, item.kind === "room" ? rooms++ : objects++);
    // a room that is only the context of its objects in a view may have no item of its own
    for (const item of model.items) if (!map.has(item.room)) map.set(item.room, rooms++);
    indexes.set(model, map);
  }
  return map.get(code) ?? 0;
}

function colourOf(model: ViewModel, code: string): string {
  return PALETTE[indexOf(model, code) % PALETTE.length];
}

/** sRGB 0…1 of "#rrggbb". */
export function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/** The colour an item is painted in, or null for its own colours. */
export function flatColourOf(look: { model: ViewModel; options?: ViewOptions }, item: Item): [number, number, number] | null {
  const mode = look.options?.colour ?? "true";
  if (mode === "room") return rgb(colourOf(look.model, item.room));
  if (mode === "object") return rgb(item.kind === "room" ? STRUCTURE : colourOf(look.model, item.code));
  return null;
}

/** The legend of a colour mode: a swatch and a name per room, or per object, among the items shown. */
export function legendOf(model: ViewModel, mode: ColourMode, shown: Item[]): LegendEntry[] {
  if (mode === "true") return [];
  const byCode = new Map(model.items.map((i) => [i.code, i]));
  const entries = new Map<string, LegendEntry>();
  for (const item of shown) {
    const code = mode === "room" ? item.room : item.kind === "object" ? item.code : null;
    if (code === null || entries.has(code)) continue;
    const named = byCode.get(code);
    entries.set(code, { code, name: named ? itemTitle(named) : code, color: colourOf(model, code) });
  }
  return [...entries.values()];
}
