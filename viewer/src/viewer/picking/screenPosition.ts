// Where a click lands on an item, for tests and the benchmark (`window.sceneViewer.screenPosition`, hooks.ts):
// its centre on the screen, or, when something else covers that (another item, a label or a panel over the canvas),
// one of its own points that the GPU pick (picking.ts) confirms and nothing covers.

import * as THREE from "three";
import { itemsOf, unionBounds, type ViewModel } from "../data/model";
import type { Stage } from "../stage/stage";

/**
 * Client coordinates of an item's centre; for a pickable one whose centre is covered by another item,
 * one of its own points (a sample of them, nearest the centre first) that the GPU pick confirms.
 */
export function screenPositionOf(stage: Stage, model: ViewModel, targets: string[], code: string): { x: number; y: number } | null {
  const bounds = unionBounds(itemsOf(model, code).map((i) => i.bounds));
  if (!bounds) return null;
  const rect = stage.canvas.getBoundingClientRect();
  const client = (p: { x: number; y: number }) => ({ x: rect.left + p.x, y: rect.top + p.y });
  const centre = stage.project(new THREE.Vector3(...bounds.min).add(new THREE.Vector3(...bounds.max)).multiplyScalar(0.5));
  const id = targets.indexOf(code) + 1;
  const free = (p: { x: number; y: number }) => {
    const at = client(p);
    return document.elementFromPoint(at.x, at.y) === stage.canvas; // a click there reaches the canvas
  };
  if (!id || (centre && stage.pick(centre.x, centre.y) === id && free(centre))) return centre && client(centre);
  const spots: { x: number; y: number; d: number }[] = [];
  const add = (p: THREE.Vector3) => {
    const s = stage.project(p);
    if (s) spots.push({ ...s, d: centre ? Math.hypot(s.x - centre.x, s.y - centre.y) : 0 });
  };
  for (const cloud of stage.allClouds().filter((c) => c.pickId === id && c.group.visible)) {
    const { positions, min, max, count } = cloud.data;
    const step = Math.max(1, Math.floor(count / 150));
    for (let k = 0; k < count; k += step) {
      const at = (a: number) => min[a] + (positions[3 * k + a] / 65535) * (max[a] - min[a]);
      add(new THREE.Vector3(at(0), at(1), at(2)));
    }
  }
  const tiles = stage.tiles;
  for (const { node, data } of tiles?.drawnTiles() ?? []) { // a tiled view: the item's points among the drawn tiles'
    const step = Math.max(1, Math.floor(data.count / 2000));
    for (let k = 0; k < data.count; k += step) {
      const item = data.items[k];
      if (tiles!.states.pickIdOf(item) !== id) continue;
      const at = (a: number) => node.min[a] + (data.positions[3 * k + a] / 65535) * node.side + (a === 2 ? tiles!.states.liftOf(item) : 0);
      add(new THREE.Vector3(at(0), at(1), at(2)));
    }
  }
  spots.sort((a, b) => a.d - b.d);
  const hit = spots.slice(0, 60).find((s) => stage.pick(s.x, s.y) === id && free(s));
  return hit ? client(hit) : centre && client(centre);
}
