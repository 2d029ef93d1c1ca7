// The floor plan's geometry, without drawing: which floor it shows (the one shown alone, the room looked inside's,
// else the one the camera looks at), its rooms' footprints (their bounds seen from above, the scene has no finer
// outlines), what each is called on it, and the fit of the plan into the minimap's canvas (north up).

import { getLang } from "../../i18n";
import { itemTitle, type Item, type ViewModel } from "../data/model";
import { unitPart } from "../panel/roomList";

/** A rectangle on the plan, in the scene's horizontal metres. */
export interface PlanRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PlanRoom {
  code: string;
  /** What the plan may write in it: its name without its unit ("Kitchen" of "Kitchen, flat 2B"), else its code. */
  short: string;
  title: string;
  rect: PlanRect;
}

export interface Plan {
  floor: string;
  rooms: PlanRoom[];
  extent: PlanRect;
}

/** The scene's two horizontal axes (up z: x and y; up y: x and z; up x: y and z). */
export function horizontalAxes(model: ViewModel): [number, number] {
  return model.upAxis === "z" ? [0, 1] : model.upAxis === "y" ? [0, 2] : [1, 2];
}

const UP = { x: 0, y: 1, z: 2 } as const;

/** The floor the plan shows: chosen, the room looked inside's, else the one whose height holds `lookAt` (or the
 *  nearest), else the first. */
export function planFloor(model: ViewModel, floor: string | null, room: string | null, lookAt: number[] | null): string | null {
  if (floor !== null) return floor;
  const drilled = room ? model.items.find((i) => i.code === room) : undefined;
  if (drilled) return drilled.floor;
  if (!lookAt || !model.floors.length) return model.floors[0]?.code ?? null;
  const up = UP[model.upAxis];
  let best: { code: string; off: number } | null = null;
  for (const { code, lo, hi } of floorHeights(model)) {
    const off = lookAt[up] < lo ? lo - lookAt[up] : lookAt[up] > hi ? lookAt[up] - hi : 0;
    if (!best || off < best.off) best = { code, off };
  }
  return best?.code ?? model.floors[0].code;
}

const heights = new WeakMap<ViewModel, { code: string; lo: number; hi: number; lift: number }[]>();

/** Each floor's rooms' lowest and highest points as drawn (lifted when floors are exploded), worked out once per lift. */
function floorHeights(model: ViewModel): { code: string; lo: number; hi: number }[] {
  const up = UP[model.upAxis];
  const lift = model.items.find((i) => i.lift !== 0)?.lift ?? 0;
  let known = heights.get(model);
  if (!known || known[0]?.lift !== lift) {
    known = model.floors.flatMap(({ code }) => {
      const rooms = model.items.filter((i) => i.kind === "room" && i.floor === code);
      return rooms.length ? [{ code, lift, lo: Math.min(...rooms.map((r) => r.bounds.min[up])), hi: Math.max(...rooms.map((r) => r.bounds.max[up])) }] : [];
    });
    heights.set(model, known);
  }
  return known;
}

/** A room's name without its unit ("Kitchen" of "Kitchen, flat 2B"; "厨房" of "厨房，公寓 2B" in Chinese), else its type. */
function shortName(room: Item): string {
  const zh = getLang() === "zh" && room.nameZh ? room.nameZh : null;
  if (zh) return zh.split("，")[0];
  const unit = unitPart(room.name);
  return room.name ? (unit ? room.name.slice(0, room.name.lastIndexOf(",")).trim() : room.name) : room.label;
}

/** The rooms of `floor` as the plan draws them; null when it has none. */
export function floorPlan(model: ViewModel, floor: string): Plan | null {
  const [a, b] = horizontalAxes(model);
  const rooms: PlanRoom[] = model.items.filter((i): i is Item => i.kind === "room" && i.floor === floor).map((room) => {
    const { min, max } = room.sceneBounds;
    return { code: room.code, short: shortName(room), title: itemTitle(room), rect: { x0: min[a], y0: min[b], x1: max[a], y1: max[b] } };
  });
  if (!rooms.length) return null;
  const extent = {
    x0: Math.min(...rooms.map((r) => r.rect.x0)), y0: Math.min(...rooms.map((r) => r.rect.y0)),
    x1: Math.max(...rooms.map((r) => r.rect.x1)), y1: Math.max(...rooms.map((r) => r.rect.y1)),
  };
  return { floor, rooms, extent };
}

/** The plan fitted into a canvas of `width` × `height` CSS pixels with a margin: north (+y) up. */
export class PlanFit {
  readonly scale: number;
  private readonly ox: number;
  private readonly oy: number;

  constructor(extent: PlanRect, readonly width: number, readonly height: number, margin = 8) {
    const w = Math.max(extent.x1 - extent.x0, 1e-3);
    const h = Math.max(extent.y1 - extent.y0, 1e-3);
    this.scale = Math.min((width - 2 * margin) / w, (height - 2 * margin) / h);
    this.ox = (width - w * this.scale) / 2 - extent.x0 * this.scale;
    this.oy = (height + h * this.scale) / 2 + extent.y0 * this.scale;
  }

  /** Scene metres → canvas pixels. */
  toCanvas(x: number, y: number): { x: number; y: number } {
    return { x: this.ox + x * this.scale, y: this.oy - y * this.scale };
  }

  /** Canvas pixels → scene metres. */
  toScene(px: number, py: number): { x: number; y: number } {
    return { x: (px - this.ox) / this.scale, y: (this.oy - py) / this.scale };
  }
}

/** The room at a point of the plan (the smallest, when several hold it), or null. */
export function roomAt(plan: Plan, x: number, y: number): PlanRoom | null {
  const holding = plan.rooms.filter((r) => r.rect.x0 <= x && x <= r.rect.x1 && r.rect.y0 <= y && y <= r.rect.y1);
  const area = (r: PlanRoom) => (r.rect.x1 - r.rect.x0) * (r.rect.y1 - r.rect.y0);
  return holding.sort((p, q) => area(p) - area(q))[0] ?? null;
}
