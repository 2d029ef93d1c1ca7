// Looking inside a room: its structure on the camera's side of the room's middle — the near walls — is drawn only up
// to CUTAWAY_M above its floor, so that it no longer hides the furniture; the far half stands whole, with its walls
// to measure and read (a cutaway). The cut follows the camera round as it orbits: stage.ts sets it before each
// frame. The shaders drop those points (pointMaterial.ts: placePoint); snapping and the raycast baseline skip them
// (`cutAway`). Everything in world coordinates, lifts included.

import * as THREE from "three";

const CUTAWAY_M = 0.9;

/** (nx, ny, d, z): a point with n · (x, y) < d and above height z is cut; this one cuts nothing. */
export const NO_CUTAWAY = new THREE.Vector4(0, 0, -1e9, 1e9);

/** The cut of a room (its box in world coordinates) seen from `camera` looking at `target`, into `out`. */
export function cutawayPlane(room: THREE.Box3, camera: THREE.Vector3, target: THREE.Vector3, out: THREE.Vector4): void {
  const n = new THREE.Vector2(target.x - camera.x, target.y - camera.y);
  if (n.lengthSq() < 1e-10) {
    out.copy(NO_CUTAWAY); // looking straight down: no wall stands in front of anything
    return;
  }
  n.normalize();
  const middle = room.getCenter(new THREE.Vector3());
  out.set(n.x, n.y, n.x * middle.x + n.y * middle.y, room.min.z + CUTAWAY_M);
}

/** Whether the cut `cut` hides the world point `p`. */
export function cutAway(cut: THREE.Vector4, p: THREE.Vector3): boolean {
  return cut.x * p.x + cut.y * p.y < cut.z && p.z > cut.w;
}
