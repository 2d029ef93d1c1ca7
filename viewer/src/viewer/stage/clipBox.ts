// The clip box: the user keeps what lies inside a box — six limits in the scene, or the box around a room — and
// nothing outside it is drawn or picked (beside the section height, "cut above", which still cuts what is inside).
// The shaders of items and tiles read it from two shared uniforms (pointMaterial.ts outsideClipBox), in the stage's
// world: the scene turned so that its up axis is z (stage.ts setUpAxis).

import * as THREE from "three";
import type { Bounds } from "../data/api";
import type { SharedUniforms } from "../points/pointMaterial";

/** A box in scene coordinates (metres); a side left open is ±Infinity. */
export type ClipBox = Bounds;

const FAR = 1e9;
// Around a room: this much of what is next to it stays (its walls' far faces, a door's frame).
const AROUND_MARGIN_M = 0.1;

/** Set the shaders' box: `box` in the scene, turned into the stage's world by `toWorld`; null: nothing is clipped. */
export function applyClipBox(shared: SharedUniforms, box: ClipBox | null, toWorld: THREE.Matrix4): void {
  if (!box) {
    shared.uClipMin.value.setScalar(-FAR);
    shared.uClipMax.value.setScalar(FAR);
    return;
  }
  const clamp = (v: number) => Math.min(FAR, Math.max(-FAR, v));
  const world = new THREE.Box3(new THREE.Vector3(...box.min.map(clamp)), new THREE.Vector3(...box.max.map(clamp))).applyMatrix4(toWorld);
  shared.uClipMin.value.copy(world.min);
  shared.uClipMax.value.copy(world.max);
}

/** The box around `bounds` (a room, what is framed) with a little margin. */
export function clipAround(bounds: Bounds): ClipBox {
  return { min: bounds.min.map((v) => v - AROUND_MARGIN_M) as ClipBox["min"], max: bounds.max.map((v) => v + AROUND_MARGIN_M) as ClipBox["max"] };
}

/** Whether `box` leaves a side open on every axis (then it clips nothing): null stands for it. */
export function clipsNothing(box: ClipBox | null): boolean {
  return !box || box.min.every((v, k) => !Number.isFinite(v) && !Number.isFinite(box.max[k]));
}
