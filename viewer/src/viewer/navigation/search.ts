// Finding a room or an object of the view by what people type: its code ("2-5", "2-5-3"), its name or label
// ("kitchen", "Master bedroom"), its unit ("flat 2B", "2B"), several words at once ("chair 2B": the chairs of flat
// 2B), or Chinese ("厨房", "椅子", "公寓 2B": the names and words of data/names.ts). Every word typed must be found;
// what matches better comes first (a code typed whole, then a name that starts with the word, then a word inside
// it), rooms before their objects. Pure: the search box (panel/searchBox.ts) shows what it returns.

import type { ItemNames } from "../data/names";
import { itemTitle, type Item, type ViewModel } from "../data/model";

/** One room or object as the search knows it: what it is called, and the texts a word may be found in. */
export interface SearchEntry {
  code: string;
  kind: "room" | "object";
  title: string;
  /** Its Chinese name when the server gave one ("厨房，公寓 2B", "椅子"). */
  zh: string | null;
  floor: string;
  room: string;
  /** An object's room ("2-5 · Kitchen, flat 2B"); null for a room. */
  context: string | null;
  texts: { text: string; weight: number }[];
}

export interface SearchHit {
  entry: SearchEntry;
  score: number;
}

const CODE_RE = /^\d+(-\d+){0,2}$/;
// Runs of Chinese characters and runs of anything else are separate words: "公寓2b" is 公寓 and 2b.
const SCRIPT_RUNS = /[\u3400-\u9fff\uf900-\ufaff]+|[^\u3400-\u9fff\uf900-\ufaff]+/g;

/** Lower case, full-width forms folded, punctuation (",", "，", "·") turned into spaces. */
export function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[,，、·;；:：()（）]+/g, " ").replace(/\s+/g, " ").trim();
}

/** The words of a query. */
export function queryWords(query: string): string[] {
  return normalise(query).split(" ").flatMap((w) => w.match(SCRIPT_RUNS) ?? []).filter(Boolean);
}

/** What the search looks through: every item of the model, with the Chinese names when they have arrived. */
export function searchEntries(model: ViewModel, names: ReadonlyMap<string, ItemNames> | null): SearchEntry[] {
  const rooms = new Map(model.items.filter((i) => i.kind === "room").map((i) => [i.code, i]));
  return model.items.map((item) => entryOf(item, rooms.get(item.room) ?? null, names));
}

function entryOf(item: Item, room: Item | null, names: ReadonlyMap<string, ItemNames> | null): SearchEntry {
  const own = names?.get(item.code) ?? null;
  const texts: { text: string; weight: number }[] = [];
  const add = (text: string | null | undefined, weight: number) => {
    if (text) texts.push({ text: normalise(text), weight });
  };
  if (item.kind === "room") {
    add(item.name, 3);
    add(item.label, 2);
  } else {
    add(item.label, 3);
    // an object is found by its room's name too, weakly: "chair 2B" finds the chairs of flat 2B
    add(room?.name ?? room?.label, 1);
    add(names?.get(item.room)?.zh, 1);
  }
  add(own?.zh, 3);
  for (const word of own?.words ?? []) add(word, 2);
  return { code: item.code, kind: item.kind, title: itemTitle(item, "en"), zh: own?.zh ?? null, floor: item.floor, room: item.room,
           context: item.kind === "object" && room ? itemTitle(room, "en") : null, texts };
}

/** How well one word matches one text: whole, at its start, at a word's start, inside it (0: not at all). */
function wordScore(word: string, text: string): number {
  if (text === word) return 4;
  if (text.startsWith(word)) return 3;
  const at = text.indexOf(word);
  if (at < 0) return 0;
  return /[\s-]/.test(text[at - 1]) ? 2 : 1;
}

/** A code typed: the item itself, or what it holds (a room's objects, a floor's rooms). */
function codeScore(word: string, code: string): number {
  if (!CODE_RE.test(word)) return 0;
  if (code === word) return 20;
  return code.startsWith(`${word}-`) ? 6 : 0;
}

function score(entry: SearchEntry, words: string[]): number {
  let total = 0;
  for (const word of words) {
    let best = codeScore(word, entry.code);
    for (const { text, weight } of entry.texts) best = Math.max(best, wordScore(word, text) * weight);
    if (best === 0) return 0;
    total += best;
  }
  return total + (entry.kind === "room" ? 0.5 : 0);
}

/** Code order: 2-10 after 2-9. */
function byCode(a: string, b: string): number {
  const pa = a.split("-").map(Number);
  const pb = b.split("-").map(Number);
  for (let k = 0; k < Math.max(pa.length, pb.length); k++) {
    const d = (pa[k] ?? -1) - (pb[k] ?? -1);
    if (d) return d;
  }
  return 0;
}

/** The entries every word of `query` is found in, best first. */
export function search(entries: SearchEntry[], query: string): SearchHit[] {
  const words = queryWords(query);
  if (!words.length) return [];
  const hits: SearchHit[] = [];
  for (const entry of entries) {
    const s = score(entry, words);
    if (s > 0) hits.push({ entry, score: s });
  }
  hits.sort((a, b) => b.score - a.score || byCode(a.entry.code, b.entry.code));
  return hits;
}
