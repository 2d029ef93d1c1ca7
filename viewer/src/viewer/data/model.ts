// What the viewer shows, whatever it was opened from: the whole scene manifest (no ?manifest) or a
// view manifest (view-only or selection). One flat list of items, each a room's structure or an object.

import { getLang } from "../../i18n";
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
  /** Where the item is drawn: its bounds in the scene, lifted by `lift` along the up axis (floors exploded). */
  bounds: Bounds;
  sceneBounds: Bounds;
  /** Metres the item is drawn above where it is (explodeFloors); 0 normally. */
  lift: number;
  points: number;
  pointsUrl: string;
  /** What tells candidates apart (view manifests' focus items; null elsewhere): the dominant colour measured, an
   *  object's room name, and the label and room name for a Chinese reader. */
  colour: ItemColour | null;
  roomName: string | null;
  labelZh: string | null;
  nameZh: string | null;
}

export type ItemColour = NonNullable<ViewManifest["items"][number]["color"]>;

/** Nothing but the code, kind and place tells this item apart (the whole scene's items). */
const UNDESCRIBED = { colour: null, roomName: null, labelZh: null, nameZh: null } as const;

export interface SelectionSpec {
  sessionId: string;
  prompt: string | null;
  multiple: boolean;
  mode: SessionMode;
  candidates: string[];
}

export interface ViewModel {
  /** The scene's id (its API address is /api/scenes/<sceneId>). */
  sceneId: string;
  sceneName: string;
  /** The scene's address in the API (/api/scenes/<id>): its names for a Chinese reader are at `<sceneUrl>/names`. */
  sceneUrl: string;
  upAxis: "x" | "y" | "z";
  items: Item[];
  /** The storeys in view; `elevation`: the height of a storey's floor, known from the scene manifest (else null). */
  floors: { code: string; name: string | null; elevation: number | null }[];
  /** What was asked for (view-only): framed and highlighted; empty for the whole scene. */
  focus: string[];
  selection: SelectionSpec | null;
}

export function words(type: string): string {
  return type.replace(/_/g, " ");
}

/** "0-3-2 · chair", "0-3 · Kitchen"; in Chinese the manifest's Chinese label and name when it has them ("0-3 · 厨房"). */
export function itemTitle(item: Pick<Item, "code" | "kind" | "label" | "name" | "labelZh" | "nameZh">,
                          lang = getLang()): string {
  const zh = lang === "zh";
  const label = (zh && item.labelZh) || item.label;
  return `${item.code} · ${item.kind === "room" ? (zh && item.nameZh) || item.name || label : label}`;
}

/** An item's place before any lift: drawn where it is. */
function placed(bounds: Bounds): Pick<Item, "bounds" | "sceneBounds" | "lift"> {
  const copy = (v: Bounds["min"]) => [...v] as Bounds["min"];
  return { bounds: { min: copy(bounds.min), max: copy(bounds.max) }, sceneBounds: bounds, lift: 0 };
}

const AXES = { x: 0, y: 1, z: 2 } as const;

/**
 * Explode the floors apart (or put them back with `on` false): floor k of the model (in its order) is
 * lifted by k × a gap, so that seen from the default camera (south, above; stage.ts frame) an upper
 * floor's footprint no longer covers the one below. Items keep their lift in `bounds`, so that labels,
 * outlines, framing and screen positions, which all read `bounds`, follow the points.
 */
export function explodeFloors(model: ViewModel, on: boolean): void {
  const up = AXES[model.upAxis];
  const depth = model.upAxis === "y" ? 2 : 1; // the horizontal axis the default camera looks along
  const spans = new Map<string, { lo: number; hi: number; d0: number; d1: number }>();
  for (const item of model.items) {
    const b = item.sceneBounds;
    const s = spans.get(item.floor) ?? { lo: Infinity, hi: -Infinity, d0: Infinity, d1: -Infinity };
    spans.set(item.floor, { lo: Math.min(s.lo, b.min[up]), hi: Math.max(s.hi, b.max[up]),
                            d0: Math.min(s.d0, b.min[depth]), d1: Math.max(s.d1, b.max[depth]) });
  }
  let height = 0;
  let deep = 0;
  for (const s of spans.values()) {
    height = Math.max(height, s.hi - s.lo);
    deep = Math.max(deep, s.d1 - s.d0);
  }
  // The camera looks down at about 50°: a lift of L moves a floor up the screen by ~0.64 L, a floor's
  // depth D and height H take ~0.77 D + 0.64 H of it; 1.25 D + 0.5 H (on top of the storey) clears that.
  const gap = 1.25 * deep + 0.5 * height;
  const index = new Map(model.floors.map((f, k) => [f.code, k]));
  for (const item of model.items) {
    item.lift = on ? (index.get(item.floor) ?? 0) * gap : 0;
    const min = [...item.sceneBounds.min] as Bounds["min"];
    const max = [...item.sceneBounds.max] as Bounds["max"];
    min[up] += item.lift;
    max[up] += item.lift;
    item.bounds = { min, max };
  }
}

/** The whole scene: every room's structure and every object. */
export function sceneModel(manifest: SceneManifest, sceneUrl: string): ViewModel {
  const items: Item[] = [];
  const url = (code: string) => `${sceneUrl}/points/${code}`;
  for (const floor of manifest.floors) {
    for (const room of floor.rooms) {
      items.push({ code: room.code, kind: "room", label: words(room.type), name: room.name ?? null, room: room.code,
                   floor: floor.code, ...placed(room.bounds), points: room.point_count, pointsUrl: url(room.code), ...UNDESCRIBED });
      for (const obj of room.objects) {
        items.push({ code: obj.code, kind: "object", label: obj.label, name: null, room: room.code, floor: floor.code,
                     ...placed(obj.bounds), points: obj.point_count, pointsUrl: url(obj.code), ...UNDESCRIBED });
      }
    }
  }
  return { sceneId: manifest.scene_id, sceneName: manifest.name, sceneUrl, upAxis: manifest.up_axis ?? "z", items, focus: [],
           selection: null,
           floors: manifest.floors.map((f) => ({ code: f.code, name: f.name ?? null, elevation: f.elevation ?? null })) };
}

/** A view manifest; `sessionId` (from the URL) wins over the manifest's own. */
export function viewModel(view: ViewManifest, selectionMode: boolean, sessionId: string | null, prompt: string | null): ViewModel {
  const items: Item[] = view.items.map((i) => ({
    code: i.code, kind: i.kind, label: i.kind === "room" ? words(i.label) : i.label, name: i.name ?? null, room: i.room,
    floor: i.floor, ...placed(i.bounds), points: i.points, pointsUrl: i.points_url,
    colour: i.color ?? null, roomName: i.room_name ?? null, labelZh: i.label_zh ?? null, nameZh: i.name_zh ?? null,
  }));
  const floors = [...new Set(items.map((i) => i.floor))].sort().map((code) => ({ code, name: null, elevation: null }));
  const id = sessionId ?? view.session_id;
  const selection = selectionMode && id
    ? { sessionId: id, prompt: prompt ?? view.prompt ?? null, multiple: view.multiple, mode: view.mode, candidates: [...view.focus] }
    : null;
  return { sceneId: view.scene_id, sceneName: view.scene_name, sceneUrl: view.scene_url, upAxis: "z", items, floors,
           focus: [...view.focus], selection };
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

/** The group a candidate is listed and framed with: its room (an object), or its floor (a room). */
export function candidateGroupKey(item: Pick<Item, "kind" | "room" | "floor">): string {
  return item.kind === "room" ? `floor:${item.floor}` : item.room;
}

const itemsByCode = new WeakMap<ViewModel, Map<string, Item[]>>();

/**
 * The items shown for a code: a room is its structure and its objects (in the model's order). Looked up in
 * an index made once per model: framing a whole scene asks this for every one of its thousands of items.
 */
export function itemsOf(model: ViewModel, code: string): Item[] {
  let index = itemsByCode.get(model);
  if (!index) {
    index = new Map();
    const add = (key: string, item: Item) => {
      const list = index!.get(key);
      if (list) list.push(item);
      else index!.set(key, [item]);
    };
    for (const item of model.items) {
      add(item.code, item);
      if (item.kind === "object" && item.room !== item.code) add(item.room, item);
    }
    itemsByCode.set(model, index);
  }
  return index.get(code) ?? [];
}

/** Bounds grown by `pad` metres on every side: a little room around what is framed. */
export function padded(b: Bounds, pad = 0.25): Bounds {
  return { min: b.min.map((v) => v - pad) as Bounds["min"], max: b.max.map((v) => v + pad) as Bounds["max"] };
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
