// Moving the camera by steps, as the keys do (navigation/keys.ts): walk forward and back along the ground, step
// sideways, turn, zoom towards what the camera looks at. Steps scale with how far away that is, so that a key moves
// as much of the screen in a room as over the whole building; every move is the user's (stage.ts placeCamera). Also
// a turn round the target (the benchmark's orbiting) and the camera in the scene's own coordinates.

import * as THREE from "three";
import type { SceneCamera } from "../../contracts";
import type { Stage } from "./stage";

// One key press moves a tenth of the distance to the target (at least 20 cm), turns 10°, zooms by a fifth.
const STEP_SHARE = 0.1;
const STEP_MIN_M = 0.2;
const TURN_DEG = 10;
const ZOOM_STEP = 1.25;

/** Walk `forward` and `right` steps (negative: back, left) along the ground; camera and target move together. */
export function walk(stage: Stage, forward: number, right: number): void {
  const { camera, controls } = stage;
  const distance = camera.position.distanceTo(controls.target);
  const step = Math.max(STEP_MIN_M, STEP_SHARE * distance);
  const up = camera.up.clone().normalize();
  const sight = controls.target.clone().sub(camera.position);
  // ahead on the ground: the sight flattened (looking straight down: the screen's up, flattened)
  const ahead = sight.clone().sub(up.clone().multiplyScalar(sight.dot(up)));
  if (ahead.lengthSq() < 1e-8) ahead.setFromMatrixColumn(camera.matrixWorld, 1).sub(up.clone().multiplyScalar(ahead.dot(up)));
  ahead.normalize();
  const side = new THREE.Vector3().crossVectors(ahead, up).normalize();
  const move = ahead.multiplyScalar(forward * step).add(side.multiplyScalar(right * step));
  stage.placeCamera(camera.position.clone().add(move), controls.target.clone().add(move));
}

/** Turn around the target by `steps` (positive: the scene turns left, as dragging to the right does). */
export function turn(stage: Stage, steps: number): void {
  const { camera, controls } = stage;
  const offset = camera.position.clone().sub(controls.target).applyAxisAngle(camera.up, THREE.MathUtils.degToRad(TURN_DEG * steps));
  stage.placeCamera(controls.target.clone().add(offset), controls.target.clone());
}

/** Zoom in (`steps` > 0) or out: nearer to or farther from the target, within the orbit's limits. */
export function zoom(stage: Stage, steps: number): void {
  const { camera, controls } = stage;
  const offset = camera.position.clone().sub(controls.target);
  const distance = THREE.MathUtils.clamp(offset.length() / ZOOM_STEP ** steps, Math.max(controls.minDistance, 0.05), controls.maxDistance);
  stage.placeCamera(controls.target.clone().add(offset.setLength(distance)), controls.target.clone());
}

/** Turn the camera around the orbit target by `degrees` about the up axis, as a user dragging does (for the
 *  benchmark's orbiting frames). */
export function orbit(stage: Stage, degrees: number): void {
  const { camera, controls } = stage;
  const offset = camera.position.clone().sub(controls.target);
  offset.applyAxisAngle(camera.up, THREE.MathUtils.degToRad(degrees));
  camera.position.copy(controls.target).add(offset);
  controls.update(); // looks at the target again; its change event asks for a frame
}

/**
 * The camera in scene coordinates (the manifest's, before the turn that puts a y- or x-up scene's up axis on z):
 * its position, the orbit target it looks at, and the direction that points up on the screen (its own y axis),
 * which tells the screen's left from its right even looking straight down. Heights in a view with exploded
 * floors are the drawn ones. Null before anything is framed (the camera sits on its target).
 */
export function sceneCamera(stage: Stage): SceneCamera | null {
  const { camera, controls } = stage;
  const toScene = stage.sceneMatrix.clone().invert();
  const position = camera.position.clone().applyMatrix4(toScene);
  const target = controls.target.clone().applyMatrix4(toScene);
  if (position.distanceTo(target) < 1e-3) return null;
  camera.updateMatrixWorld();
  const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1).transformDirection(toScene);
  return { position: position.toArray(), target: target.toArray(), up: up.toArray() };
}
