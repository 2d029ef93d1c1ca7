// How each item looks given what the viewer is doing: candidates tinted, picks tinted strongly, the
// hovered one brighter and larger, non-candidates dimmed (and not pickable); in view-only mode, the
// focus in full colour and its context softly dimmed. Also which labels are shown over the canvas.

import * as THREE from "three";
import type { LabelSpec } from "./labels";
import { itemTitle, pickTargetOf, type Item, type ViewModel } from "./model";
import type { CloudStyle } from "./pointMaterial";

export const COLORS = {
  candidate: new THREE.Color("#ffb224"),
  picked: new THREE.Color("#2ee6a6"),
  hover: new THREE.Color("#ffffff"),
  focus: new THREE.Color("#4da3ff"),
};

export interface Look {
  model: ViewModel;
  selection: boolean;
  candidates: ReadonlySet<string>;
  selected: ReadonlySet<string>;
  hovered: string | null;
  drillRoom: string | null;
  floor: string | null;
}

/** Codes the pointer can pick, in pick-id order (id = index + 1): candidates, or in view mode every item. */
export function pickTargets(look: Pick<Look, "model" | "selection" | "candidates">): string[] {
  return look.selection ? [...look.candidates] : look.model.items.map((i) => i.code);
}

/** What an item's points stand for under the pointer (null: not pickable). */
export function targetOf(look: Look, item: Item): string | null {
  return look.selection ? pickTargetOf(item, look.candidates) : item.code;
}

export function isVisible(look: Look, item: Item): boolean {
  if (look.drillRoom !== null) return item.room === look.drillRoom;
  return look.floor === null || item.floor === look.floor;
}

function inFocus(look: Look, item: Item): boolean {
  const focus = look.model.focus;
  return focus.length === 0 || focus.includes(item.code) || focus.includes(item.room);
}

export function styleOf(look: Look, item: Item): CloudStyle {
  const style: CloudStyle = { dim: 0, tint: COLORS.hover, tintAmount: 0, sizeBoost: 1 };
  const target = targetOf(look, item);
  const hovered = target !== null && target === look.hovered;
  // a room's own structure is large: tint it less than objects, so that its colours stay readable
  const weight = item.kind === "room" ? 0.6 : 1;
  if (look.selection) {
    if (target === null) return { ...style, dim: 1, sizeBoost: 0.85 };
    const picked = look.selected.has(target);
    // Light tints: people pick by colour ("the red chair"), so colours must stay true; boxes and labels
    // carry the distinction, and the dimmed rest the contrast.
    style.tint = picked ? COLORS.picked : COLORS.candidate;
    style.tintAmount = (picked ? 0.3 : 0.12) * weight + (hovered ? 0.15 : 0);
    style.sizeBoost = (picked ? 1.3 : 1.1) * (hovered ? 1.35 : 1);
    return style;
  }
  // View-only: the focus keeps its true colours (the question may be about them); the rest is dimmed.
  if (!inFocus(look, item) && look.drillRoom === null) style.dim = 0.55;
  if (hovered) {
    style.tint = COLORS.hover;
    style.tintAmount = 0.3 * weight;
    style.sizeBoost = 1.25;
  }
  return style;
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
export function anchorOf(item: Item): THREE.Vector3 {
  const [x0, y0, z0] = item.bounds.min;
  const [x1, y1, z1] = item.bounds.max;
  return new THREE.Vector3((x0 + x1) / 2, (y0 + y1) / 2, item.kind === "room" ? z0 + 0.55 * (z1 - z0) : z1);
}

export function labelsOf(look: Look): LabelSpec[] {
  const byCode = new Map(look.model.items.map((i) => [i.code, i]));
  const specs: LabelSpec[] = [];
  const add = (item: Item, kind: string) => specs.push({ key: item.code, text: itemTitle(item), anchor: anchorOf(item), kind });
  if (look.selection) {
    for (const code of look.candidates) {
      const item = byCode.get(code);
      if (!item || !isVisible(look, item)) continue;
      add(item, code === look.hovered ? "hovered" : look.selected.has(code) ? "picked" : "candidate");
    }
  } else if (look.drillRoom === null) {
    const focus = look.model.focus.length ? look.model.focus : look.model.items.filter((i) => i.kind === "room").map((i) => i.code);
    for (const code of focus.slice(0, 60)) {
      const item = byCode.get(code);
      if (item && isVisible(look, item)) add(item, "focus");
    }
  }
  if (look.drillRoom !== null) {
    for (const item of look.model.items) {
      if (item.kind === "object" && item.room === look.drillRoom && !look.candidates.has(item.code)) add(item, "object");
    }
  }
  const hovered = look.hovered ? byCode.get(look.hovered) : undefined;
  if (hovered && !specs.some((s) => s.key === hovered.code) && isVisible(look, hovered)) add(hovered, "hovered");
  return specs;
}

/** Boxes around candidates (amber; picked green; hovered white), or around the focus of a view (blue). */
export function outlinesOf(look: Look): { bounds: Item["bounds"]; color: THREE.Color }[] {
  const byCode = new Map(look.model.items.map((i) => [i.code, i]));
  const codes = look.selection ? [...look.candidates] : look.model.focus;
  const boxes = [];
  for (const code of codes) {
    const item = byCode.get(code);
    if (!item || !isVisible(look, item)) continue;
    const color = !look.selection ? COLORS.focus : code === look.hovered ? COLORS.hover
      : look.selected.has(code) ? COLORS.picked : COLORS.candidate;
    boxes.push({ bounds: item.bounds, color });
  }
  return boxes;
}
