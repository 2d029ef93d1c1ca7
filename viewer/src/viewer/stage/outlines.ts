// The boxes drawn around candidates, picks, the hovered item and a view's focus (looks.ts says which,
// in what colour and width). WebGL draws 1-pixel lines only, too thin to tell a pick from a candidate:
// these are screen-space wide lines (three's LineSegments2), each over a darker, wider halo so that it
// reads over light and dark points alike; a pick's box is doubled by a second, larger one around it.

import * as THREE from "three";
import { LineMaterial } from "three/examples/jsm/lines/LineMaterial.js";
import { LineSegments2 } from "three/examples/jsm/lines/LineSegments2.js";
import { LineSegmentsGeometry } from "three/examples/jsm/lines/LineSegmentsGeometry.js";
import type { Bounds } from "../data/api";

export interface OutlineSpec {
  bounds: Bounds;
  /** "#rrggbb" */
  color: string;
  /** Line width in CSS pixels. */
  width: number;
  doubled: boolean;
}

const HALO = { color: "#0b0c0f", opacity: 0.7, extraPx: 3 };
// A box stands a little off what it surrounds (so that its lines do not run over the item's own points).
const PAD_SHARE = 0.04;
const PAD_MIN_M = 0.03;
// The second box of a pick: this much further out (a share of the item's largest side, within bounds in metres).
const DOUBLE = { share: 0.08, min: 0.04, max: 0.15 };

// The 12 edges of the unit box, as pairs of corners.
const EDGES = [0, 1, 1, 3, 3, 2, 2, 0, 4, 5, 5, 7, 7, 6, 6, 4, 0, 4, 1, 5, 2, 6, 3, 7];

/** The 12 edges of `bounds` padded (a little, and `out` metres more), as segment end points. */
function boxSegments(bounds: Bounds, out: number): number[] {
  const segments: number[] = [];
  const pad = (k: number) => Math.max(PAD_MIN_M, (bounds.max[k] - bounds.min[k]) * PAD_SHARE) + out;
  const lo = bounds.min.map((v, k) => v - pad(k));
  const hi = bounds.max.map((v, k) => v + pad(k));
  for (const c of EDGES) segments.push(c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]);
  return segments;
}

export class Outlines {
  private readonly group = new THREE.Group();
  private readonly materials = new Map<string, LineMaterial>();

  constructor(parent: THREE.Object3D) {
    parent.add(this.group);
  }

  /** One material per look (colour, width, halo or not), reused across updates. */
  private material(color: string, width: number, halo: boolean): LineMaterial {
    const key = `${color}/${width}/${halo}`;
    let m = this.materials.get(key);
    if (!m) {
      // both transparent: three draws transparent objects after opaque ones, in renderOrder among themselves
      m = new LineMaterial({ color: new THREE.Color(color), linewidth: width, worldUnits: false, transparent: true,
                             opacity: halo ? HALO.opacity : 1, depthWrite: false });
      this.materials.set(key, m);
    }
    return m;
  }

  set(specs: OutlineSpec[]): void {
    for (const child of [...this.group.children]) {
      (child as LineSegments2).geometry.dispose();
      this.group.remove(child);
    }
    specs.forEach((spec, index) => {
      const segments = boxSegments(spec.bounds, 0);
      const side = Math.max(...spec.bounds.max.map((v, k) => v - spec.bounds.min[k]));
      if (spec.doubled) segments.push(...boxSegments(spec.bounds, Math.min(DOUBLE.max, Math.max(DOUBLE.min, DOUBLE.share * side))));
      const geometry = new LineSegmentsGeometry().setPositions(segments);
      const halo = new LineSegments2(geometry, this.material(HALO.color, spec.width + 2 * HALO.extraPx, true));
      const line = new LineSegments2(geometry, this.material(spec.color, spec.width, false));
      // after the points (their depth hides a box's far edges behind the item), each halo under its line,
      // later boxes (the hovered one) over earlier ones
      halo.renderOrder = 10 + 2 * index;
      line.renderOrder = 11 + 2 * index;
      for (const obj of [halo, line]) {
        this.group.add(obj);
        obj.updateMatrixWorld(true);
      }
    });
  }

  dispose(): void {
    this.set([]);
    for (const m of this.materials.values()) m.dispose();
    this.materials.clear();
    this.group.removeFromParent();
  }
}
