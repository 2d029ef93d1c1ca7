// How each item looks given what the viewer is doing: every item in its true colours (or its room's or
// its own colour in a colour mode, colourModes.ts); candidates, picks and the hovered one marked by boxes
// around them and labels, never by a tint; the hovered one's points larger; non-candidates dimmed (and
// not pickable); in view-only mode, the focus in full colour and its context softly dimmed. Also which
// labels and boxes are shown over the canvas.

import * as THREE from "three";
import type { LabelSpec } from "../panel/labels";
import { itemTitle, pickTargetOf, type Item, type ViewModel } from "../data/model";
import type { Bounds } from "../data/api";
import type { CloudStyle } from "../points/pointMaterial";
import { flatColourOf, type ViewOptions } from "./colourModes";

/** Box colours (the labels' and the list's colours, viewer.css) and widths in CSS pixels. */
export const OUTLINE = {
  candidate: { color: "#ffb224", width: 2 },
  picked: { color: "#2ee6a6", width: 4.5 },
  hovered: { color: "#ffffff", width: 3 },
  focus: { color: "#4da3ff", width: 2 },
};

/** A box drawn around an item: its colour, line width in CSS pixels, and whether a second box doubles it. */
export interface Outline {
  bounds: Item["bounds"];
  color: string;
  width: number;
  doubled: boolean;
}

export interface Look {
  model: ViewModel;
  selection: boolean;
  candidates: ReadonlySet<string>;
  selected: ReadonlySet<string>;
  hovered: string | null;
  drillRoom: string | null;
  floor: string | null;
  /** The view controls' choices (viewControls.ts); true colours and everything shown when absent. */
  options?: ViewOptions;
  /** The user's clip box (stage/clipBox.ts): what lies wholly outside it gets no label. */
  clip?: Bounds | null;
  /** "Cut above": the height in the scene above which nothing is drawn (none when absent): what lies wholly above it
   *  gets no label, and a label is never drawn above it. */
  section?: number | null;
}

/** Codes the pointer can pick, in pick-id order (id = index + 1): candidates, or in view mode every item. */
export function pickTargets(look: Pick<Look, "model" | "selection" | "candidates">): string[] {
  return look.selection ? [...look.candidates] : look.model.items.map((i) => i.code);
}

/** What an item's points stand for under the pointer (null: not pickable). */
export function targetOf(look: Look, item: Item): string | null {
  return look.selection ? pickTargetOf(item, look.candidates) : item.code;
}

/** Whether an item's points are drawn. */
export function isVisible(look: Look, item: Item): boolean {
  return inView(look, item) && !(item.kind === "room" && look.options?.hideStructure);
}

/** Whether an item is part of what is shown (its floor, the room looked inside, the clip box), drawn or not: labels
 *  and boxes. */
function inView(look: Look, item: Item): boolean {
  const { clip } = look;
  if (clip && item.sceneBounds.min.some((lo, k) => lo > clip.max[k] || item.sceneBounds.max[k] < clip.min[k])) return false;
  if (look.drillRoom !== null) return item.room === look.drillRoom;
  return look.floor === null || item.floor === look.floor;
}

function inFocus(look: Look, item: Item): boolean {
  const focus = look.model.focus;
  return focus.length === 0 || focus.includes(item.code) || focus.includes(item.room);
}

/** Dimming and point sizes: a highlight never changes an item's colours (people pick by them: "the red chair"). */
export function styleOf(look: Look, item: Item): CloudStyle {
  const flat = flatColourOf(look, item);
  const target = targetOf(look, item);
  const hovered = target !== null && target === look.hovered;
  if (look.selection) {
    if (target === null) return { dim: 1, flat, sizeBoost: 0.85 };
    // boxes, labels and the list carry the distinction; the dimmed rest gives the contrast
    return { dim: 0, flat, sizeBoost: (look.selected.has(target) ? 1.15 : 1) * (hovered ? 1.35 : 1) };
  }
  // View-only: the focus keeps its true colours (the question may be about them); the rest is dimmed.
  const dim = !inFocus(look, item) && look.drillRoom === null ? 0.55 : 0;
  return { dim, flat, sizeBoost: hovered ? 1.3 : 1 };
}

/**
 * Drawn over everything else: candidates' objects (a room candidate's own structure would hide all
 * else), and a view's focus objects; never while looking inside a room (everything there is in sight).
 */
export function onTop(look: Look, item: Item): boolean {
  if (look.drillRoom !== null || item.kind === "room") return false;
  if (look.selection) return targetOf(look, item) !== null;
  return look.model.focus.includes(item.code) && look.model.focus.length < look.model.items.length;
}

/** Where a label sits: above an object, at the middle of a room. */
export function anchorOf(item: Item, section: number | null = null): THREE.Vector3 {
  const [x0, y0, z0] = item.bounds.min;
  const [x1, y1, z1] = item.bounds.max;
  const z = item.kind === "room" ? z0 + 0.55 * (z1 - z0) : z1;
  return new THREE.Vector3((x0 + x1) / 2, (y0 + y1) / 2, section === null ? z : Math.min(z, section + item.lift));
}

/** Whether some of an item is below the cut (drawn): the cut compares heights before any lift, as the shaders do. */
function belowCut(look: Look, item: Item): boolean {
  return look.section == null || item.sceneBounds.min[{ x: 0, y: 1, z: 2 }[look.model.upAxis]] <= look.section;
}

// More labels than this would cover one another: the rest are left out.
const LABELS_MAX = 60;

export function labelsOf(look: Look): LabelSpec[] {
  const byCode = new Map(look.model.items.map((i) => [i.code, i]));
  const specs: LabelSpec[] = [];
  const section = look.section ?? null;
  const add = (item: Item, kind: string) => specs.push({ key: item.code, text: itemTitle(item), anchor: anchorOf(item, section), kind });
  if (look.selection) {
    for (const code of look.candidates) {
      const item = byCode.get(code);
      if (!item || !inView(look, item) || !belowCut(look, item)) continue;
      // an object candidate's label: beside its box, never over a candidate, and a click on it picks it; a room's sits
      // in its middle, over the rooms, and lets the pointer through to them
      const object = item.kind === "object";
      specs.push({ key: code, text: itemTitle(item), anchor: anchorOf(item, section), box: object ? item.bounds : undefined, pickable: object,
                   kind: code === look.hovered ? "hovered" : look.selected.has(code) ? "picked" : "candidate" });
    }
  } else if (look.drillRoom === null) {
    const focus = look.model.focus.length ? look.model.focus : look.model.items.filter((i) => i.kind === "room").map((i) => i.code);
    // the first 60 of those in view (of the floor shown: not the first 60 of the building, all on its lower floors)
    const inSight = focus.map((code) => byCode.get(code)).filter((item): item is Item => !!item && inView(look, item) && belowCut(look, item));
    for (const item of inSight.slice(0, LABELS_MAX)) add(item, "focus");
  }
  if (look.drillRoom !== null) {
    for (const item of look.model.items) {
      if (item.kind === "object" && item.room === look.drillRoom && !look.candidates.has(item.code) && belowCut(look, item)) {
        add(item, "object");
      }
    }
  }
  const hovered = look.hovered ? byCode.get(look.hovered) : undefined;
  if (hovered && !specs.some((s) => s.key === hovered.code) && inView(look, hovered)) add(hovered, "hovered");
  return specs;
}

/**
 * Boxes around candidates (amber), picks (green, thick and doubled), the hovered one (white, over the
 * others), or around the focus of a view (blue). Drawn with a dark halo (stage.ts), so that they read
 * over light and dark points alike.
 */
export function outlinesOf(look: Look): Outline[] {
  const byCode = new Map(look.model.items.map((i) => [i.code, i]));
  const codes = look.selection ? [...look.candidates] : look.model.focus;
  const boxes: Outline[] = [];
  let hovered: Outline | null = null;
  for (const code of codes) {
    const item = byCode.get(code);
    if (!item || !inView(look, item)) continue;
    const picked = look.selection && look.selected.has(code);
    const kind = !look.selection ? OUTLINE.focus : picked ? OUTLINE.picked : OUTLINE.candidate;
    const box: Outline = { bounds: item.bounds, color: kind.color, width: kind.width, doubled: picked };
    if (code === look.hovered) hovered = { ...box, color: OUTLINE.hovered.color, width: Math.max(box.width, OUTLINE.hovered.width) };
    else boxes.push(box);
  }
  const other = !look.selection && look.hovered && !codes.includes(look.hovered) ? byCode.get(look.hovered) : undefined;
  if (other && inView(look, other)) hovered = { bounds: other.bounds, ...OUTLINE.hovered, doubled: false };
  if (hovered) boxes.push(hovered); // last: drawn over the boxes it touches
  return boxes;
}
