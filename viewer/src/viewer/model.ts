// What the viewer shows, whatever it was opened from: the whole scene manifest (no ?manifest) or a
// view manifest (view-only or selection). One flat list of items, each a room's structure or an object.

import type { Bounds, SceneManifest, SessionMode, ViewManifest } from "./api";

export interface Item {
  code: string;
  kind: "room" | "object";
  /** Object label, or the room's type in words. */
  label: string;
  /** A room's display name (rooms only). */
  name: string | null;
  room: string;
  floor: string;
  bounds: Bounds;
  points: number;
  pointsUrl: string;
}

export interface SelectionSpec {
  sessionId: string;
  prompt: string | null;
  multiple: boolean;
  mode: SessionMode;
  candidates: string[];
}

export interface ViewModel {
  sceneName: string;
  upAxis: "x" | "y" | "z";
  items: Item[];
  floors: { code: string; name: string | null }[];
  /** What was asked for (view-only): framed and highlighted; empty for the whole scene. */
  focus: string[];
  selection: SelectionSpec | null;
}

export function words(type: string): string {
  return type.replace(/_/g, " ");
}

/** "0-3-2 · chair", "0-3 · Kitchen". */
export function itemTitle(item: Pick<Item, "code" | "kind" | "label" | "name">): string {
  return `${item.code} · ${item.kind === "room" ? item.name || item.label : item.label}`;
}

/** The whole scene: every room's structure and every object. */
export function sceneModel(manifest: SceneManifest, sceneUrl: string): ViewModel {
  const items: Item[] = [];
  const url = (code: string) => `${sceneUrl}/points/${code}`;
  for (const floor of manifest.floors) {
    for (const room of floor.rooms) {
      items.push({ code: room.code, kind: "room", label: words(room.type), name: room.name ?? null, room: room.code,
                   floor: floor.code, bounds: room.bounds, points: room.point_count, pointsUrl: url(room.code) });
      for (const obj of room.objects) {
        items.push({ code: obj.code, kind: "object", label: obj.label, name: null, room: room.code, floor: floor.code,
                     bounds: obj.bounds, points: obj.point_count, pointsUrl: url(obj.code) });
      }
    }
  }
  return { sceneName: manifest.name, upAxis: manifest.up_axis ?? "z", items, focus: [], selection: null,
           floors: manifest.floors.map((f) => ({ code: f.code, name: f.name ?? null })) };
}

/** A view manifest; `sessionId` (from the URL) wins over the manifest's own. */
export function viewModel(view: ViewManifest, selectionMode: boolean, sessionId: string | null, prompt: string | null): ViewModel {
  const items: Item[] = view.items.map((i) => ({
    code: i.code, kind: i.kind, label: i.kind === "room" ? words(i.label) : i.label, name: i.name ?? null, room: i.room,
    floor: i.floor, bounds: i.bounds, points: i.points, pointsUrl: i.points_url,
  }));
  const floors = [...new Set(items.map((i) => i.floor))].sort().map((code) => ({ code, name: null }));
  const id = sessionId ?? view.session_id;
  const selection = selectionMode && id
    ? { sessionId: id, prompt: prompt ?? view.prompt ?? null, multiple: view.multiple, mode: view.mode, candidates: [...view.focus] }
    : null;
  return { sceneName: view.scene_name, upAxis: "z", items, floors, focus: [...view.focus], selection };
}

/**
 * The candidate an item's points stand for: the item itself, or — when rooms are the candidates — the
 * room it belongs to (a room is picked by any of its points: structure and objects).
 */
export function pickTargetOf(item: Item, candidates: ReadonlySet<string>): string | null {
  if (candidates.has(item.code)) return item.code;
  if (candidates.has(item.room)) return item.room;
  return null;
}

/** The items shown for a code: a room is its structure and its objects. */
export function itemsOf(model: ViewModel, code: string): Item[] {
  return model.items.filter((i) => i.code === code || (i.kind === "object" && i.room === code));
}

export function unionBounds(list: Bounds[]): Bounds | null {
  if (!list.length) return null;
  const min = [...list[0].min] as Bounds["min"];
  const max = [...list[0].max] as Bounds["max"];
  for (const b of list) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], b.min[k]);
      max[k] = Math.max(max[k], b.max[k]);
    }
  }
  return { min, max };
}
