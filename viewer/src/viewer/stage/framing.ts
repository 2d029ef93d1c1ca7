// Framing: where the camera goes to show a box as large as it can in a part of the canvas (the part that
// nothing covers: visibleRect.ts), with a margin for the labels above objects. The camera keeps its view
// direction (from the south, above) and looks at the box's centre; the projection's principal point moves
// to the middle of the part chosen (stage.ts applies it as a view offset), so that the centre is drawn
// there and orbiting keeps it there.

import * as THREE from "three";

/** A rectangle of the canvas in CSS pixels from its top left. */
export interface ScreenRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

// Framing one small object shows a little of the room around it too.
const MIN_FRAME_RADIUS_M = 1.0;
// Framed boxes keep this far from the part's edges (CSS pixels, or this share of its smaller side if more),
// and a label's height more at the top (labels sit above objects).
const FRAME_MARGIN_PX = 20;
const FRAME_MARGIN_SHARE = 0.06;
const LABEL_ROOM_PX = 24;
// Where the camera looks from: the direction from the target to the camera (south, above).
const FRAME_DIRECTION = new THREE.Vector3(0.25, -0.75, 0.95).normalize();

export interface Fit {
  center: THREE.Vector3;
  /** Unit vector from the centre to the camera. */
  back: THREE.Vector3;
  distance: number;
  radius: number;
  /** Where the centre is drawn, in NDC. */
  principal: { x: number; y: number };
  /** The part of the canvas used. */
  rect: ScreenRect;
}

/**
 * The nearest camera that shows every corner of `box` (world coordinates) inside one of `rects` (less a
 * margin), trying each and keeping the one that shows the box largest.
 */
export function fitBox(box: THREE.Box3, rects: ScreenRect[], view: { width: number; height: number; fov: number; up: THREE.Vector3 }): Fit {
  const center = box.getCenter(new THREE.Vector3());
  const radius = box.getSize(new THREE.Vector3()).length() / 2;
  const grow = radius < MIN_FRAME_RADIUS_M ? MIN_FRAME_RADIUS_M / Math.max(radius, 1e-3) : 1;
  // Each corner in the camera's axes, relative to the centre.
  const back = FRAME_DIRECTION.clone();
  const right = new THREE.Vector3().crossVectors(back.clone().negate(), view.up).normalize();
  const up = new THREE.Vector3().crossVectors(right, back.clone().negate());
  const corners = [];
  for (let k = 0; k < 8; k++) {
    const corner = new THREE.Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z);
    const rel = corner.sub(center).multiplyScalar(grow);
    corners.push({ x: rel.dot(right), y: rel.dot(up), z: rel.dot(back) }); // z: towards the camera
  }
  const tanV = Math.tan(THREE.MathUtils.degToRad(view.fov) / 2);
  const tanH = (tanV * view.width) / view.height;
  let best: Fit = { center, back, radius, distance: Infinity, principal: { x: 0, y: 0 }, rect: rects[0] };
  for (const rect of rects) {
    const margin = Math.max(FRAME_MARGIN_PX, FRAME_MARGIN_SHARE * Math.min(rect.width, rect.height));
    let inner = { left: rect.left + margin, top: rect.top + margin + LABEL_ROOM_PX,
                  width: rect.width - 2 * margin, height: rect.height - 2 * margin - LABEL_ROOM_PX };
    if (inner.width < 40 || inner.height < 40) inner = rect; // too small a part for margins
    // The centre is drawn at the middle of `inner`; a corner at depth D − z is drawn x / ((D − z) tanH)
    // (in NDC) away from there, which must stay within the half-width hx (and so for y).
    const hx = inner.width / view.width;
    const hy = inner.height / view.height;
    let distance = 0;
    for (const { x, y, z } of corners) {
      distance = Math.max(distance, z + Math.abs(x) / (hx * tanH), z + Math.abs(y) / (hy * tanV), z + 0.1);
    }
    if (distance < best.distance) {
      const principal = { x: ((inner.left + inner.width / 2) / view.width) * 2 - 1, y: 1 - ((inner.top + inner.height / 2) / view.height) * 2 };
      best = { ...best, distance, principal, rect };
    }
  }
  return best;
}

/** `rect` cut to the canvas (and never empty). */
export function clampRect(rect: ScreenRect, width: number, height: number): ScreenRect {
  const left = Math.min(Math.max(0, rect.left), width - 1);
  const top = Math.min(Math.max(0, rect.top), height - 1);
  return { left, top, width: Math.max(1, Math.min(rect.width, width - left)), height: Math.max(1, Math.min(rect.height, height - top)) };
}
