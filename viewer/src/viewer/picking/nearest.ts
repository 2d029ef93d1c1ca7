// Forgiving touch picks: a finger is far wider than the GPU pick's 7×7 window (picking.ts), so a tap that hits none
// of a candidate's points picks the candidate drawn nearest the tap, within TOUCH_SLOP_PX. Found in screen space:
// each pickable candidate's projected box first (a cheap bound), then a sample of its own points, projected; a
// candidate drawn only by tiles (no cloud of its own) counts by its box.

import * as THREE from "three";
import { itemsOf, unionBounds, type ViewModel } from "../data/model";
import type { Stage } from "../stage/stage";

/** How far from a candidate (CSS pixels) a tap still picks it. */
export const TOUCH_SLOP_PX = 24;
// Points of a candidate's cloud projected per candidate looked at.
const SAMPLES = 600;

type Spot = { x: number; y: number };

/** Canvas CSS pixels of a sample of the points drawn with pick id `id` (its own clouds'; none when it has none). */
export function projectedPoints(stage: Stage, id: number): Spot[] {
  const out: Spot[] = [];
  const p = new THREE.Vector3();
  for (const cloud of stage.allClouds()) {
    if (cloud.pickId !== id || !cloud.pickGroup.visible) continue;
    const { positions, min, max, count } = cloud.data;
    const step = Math.max(1, Math.floor(count / SAMPLES));
    for (let k = 0; k < count; k += step) {
      const at = (a: number) => min[a] + (positions[3 * k + a] / 65535) * (max[a] - min[a]);
      const s = stage.project(p.set(at(0), at(1), at(2)));
      if (s) out.push(s);
    }
  }
  return out;
}

/** The middle of a candidate's drawn points on the canvas (the mean of a sample), or null when none is on screen. */
export function pointsCentre(stage: Stage, id: number): Spot | null {
  const spots = projectedPoints(stage, id);
  if (!spots.length) return null;
  return { x: spots.reduce((n, s) => n + s.x, 0) / spots.length, y: spots.reduce((n, s) => n + s.y, 0) / spots.length };
}

/** The pick target drawn nearest canvas pixel (x, y), within `slop` CSS pixels; `targets[id - 1]` is what id `id` stands for. */
export function nearestTarget(stage: Stage, model: ViewModel, targets: readonly string[], x: number, y: number,
                              slop = TOUCH_SLOP_PX): string | null {
  let best: string | null = null;
  let bestD = slop;
  targets.forEach((code, k) => {
    const bounds = unionBounds(itemsOf(model, code).map((i) => i.bounds));
    const box = bounds && stage.projectBox(bounds);
    if (!box) return;
    const outside = Math.hypot(Math.max(box.left - x, 0, x - box.left - box.width), Math.max(box.top - y, 0, y - box.top - box.height));
    const clouds = stage.allClouds().filter((c) => c.pickId === k + 1);
    if (outside > bestD || (clouds.length && !clouds.some((c) => c.pickGroup.visible))) return; // far, or not drawn
    const spots = projectedPoints(stage, k + 1);
    const d = spots.length ? Math.min(...spots.map((s) => Math.hypot(s.x - x, s.y - y))) : outside;
    if (d <= bestD) {
      bestD = d;
      best = code;
    }
  });
  return best;
}
