// Which tiles to draw for a camera: the octree walked largest-on-screen first (a node's bounding sphere
// projected to pixels), under a point budget. A node is drawn when it is in the frustum, near something
// the view shows, loaded, and fits in the budget; its children are visited only while its own points are
// still more than `minSpacingPx` apart on screen (the screen-space error: past that, finer points add
// nothing one can see). A node that is wanted but not loaded is asked for, and its subtree waits for it.
// This is the refinement Potree and its three.js ports use, over our own tiles (docs/architecture.md).

import * as THREE from "three";
import type { TileNode } from "./tileData";

export interface LodView {
  /** Camera position and frustum in world coordinates. */
  eye: THREE.Vector3;
  frustum: THREE.Frustum;
  /** Pixels that one world unit covers at distance 1 (the shaders' uScale). */
  pixelsPerUnit: number;
}

export interface LodRules {
  /** Most points drawn at once. */
  budget: number;
  /** Children are visited while a node's point spacing covers more pixels than this. */
  minSpacingPx: number;
  /** Voxel side in metres per level (the index's `spacing`). */
  spacing: readonly number[];
  /** The node's box in world coordinates (its cube, grown by any lift of what it holds). */
  box(node: TileNode): THREE.Box3;
  /** False for a node that holds nothing the view shows. */
  relevant(node: TileNode): boolean;
  loaded(node: TileNode): boolean;
}

export interface LodChoice {
  /** Nodes to draw, most important first. */
  drawn: TileNode[];
  /** Nodes to fetch, most important first. */
  wanted: TileNode[];
  points: number;
}

interface Entry {
  node: TileNode;
  weight: number;
}

const sphere = new THREE.Sphere();

/** How large a node looks: its bounding sphere's radius in pixels (Infinity with the eye inside it). */
function weightOf(node: TileNode, rules: LodRules, view: LodView): number {
  rules.box(node).getBoundingSphere(sphere);
  const distance = sphere.center.distanceTo(view.eye);
  return distance <= sphere.radius ? Infinity : (sphere.radius * view.pixelsPerUnit) / distance;
}

/** Pixels between neighbouring points of `node` at its nearest. */
function spacingPx(node: TileNode, rules: LodRules, view: LodView): number {
  const box = rules.box(node);
  const distance = Math.max(box.distanceToPoint(view.eye), 1e-3);
  return ((rules.spacing[node.level] ?? 0) * view.pixelsPerUnit) / distance;
}

export function chooseTiles(root: TileNode, view: LodView, rules: LodRules): LodChoice {
  const drawn: TileNode[] = [];
  const wanted: TileNode[] = [];
  let points = 0;
  const queue = new MaxHeap();
  queue.push({ node: root, weight: weightOf(root, rules, view) });
  for (let entry = queue.pop(); entry; entry = queue.pop()) {
    const { node } = entry;
    if (!view.frustum.intersectsBox(rules.box(node)) || !rules.relevant(node)) continue;
    if (points + node.points > rules.budget) break;
    if (!rules.loaded(node)) {
      wanted.push(node);
      continue;
    }
    drawn.push(node);
    points += node.points;
    if (spacingPx(node, rules, view) <= rules.minSpacingPx) continue;
    for (const child of node.children) queue.push({ node: child, weight: weightOf(child, rules, view) });
  }
  return { drawn, wanted, points };
}

/** A binary max-heap of entries by weight. */
class MaxHeap {
  private readonly items: Entry[] = [];

  push(entry: Entry): void {
    const items = this.items;
    items.push(entry);
    for (let i = items.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (items[up].weight >= items[i].weight) break;
      [items[up], items[i]] = [items[i], items[up]];
      i = up;
    }
  }

  pop(): Entry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (!items.length || !last) return top;
    items[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < items.length && items[l].weight > items[best].weight) best = l;
      if (r < items.length && items[r].weight > items[best].weight) best = r;
      if (best === i) break;
      [items[best], items[i]] = [items[i], items[best]];
      i = best;
    }
    return top;
  }
}
