// Where scene coordinates land on the canvas: a point, or the rectangle a box covers (CSS pixels).

import * as THREE from "three";
import type { Bounds } from "../data/api";
import type { ScreenRect } from "./framing";

/** What projecting needs: the scene root's world matrix, the camera and the canvas size in CSS pixels. */
export interface View {
  matrixWorld: THREE.Matrix4;
  camera: THREE.Camera;
  width: number;
  height: number;
}

/** Canvas CSS pixel of a point in scene coordinates, or null behind the camera or off the canvas. */
export function projectPoint(view: View, p: THREE.Vector3): { x: number; y: number } | null {
  const v = p.clone().applyMatrix4(view.matrixWorld).project(view.camera);
  if (v.z < -1 || v.z > 1 || Math.abs(v.x) > 1 || Math.abs(v.y) > 1) return null;
  return { x: ((v.x + 1) / 2) * view.width, y: ((1 - v.y) / 2) * view.height };
}

/** The canvas rectangle (CSS pixels) that a box in scene coordinates covers, or null if any corner is behind the camera. */
export function projectBounds(view: View, bounds: Bounds): ScreenRect | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < 8; k++) {
    const corner = new THREE.Vector3(bounds[k & 1 ? "max" : "min"][0], bounds[k & 2 ? "max" : "min"][1], bounds[k & 4 ? "max" : "min"][2]);
    const v = corner.applyMatrix4(view.matrixWorld).project(view.camera);
    if (v.z < -1 || v.z > 1) return null;
    const x = ((v.x + 1) / 2) * view.width;
    const y = ((1 - v.y) / 2) * view.height;
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return { left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}
