// The baseline that `scene-agent bench viewer` compares GPU picking with: three.js' Raycaster over the
// pickable Points (CPU, every point of every cloud whose bounds the ray meets), with a threshold as
// wide as half the GPU pick window at the orbit target. Not used for ordinary clicks.

import * as THREE from "three";
import { PICK_WINDOW } from "./picking";
import { cutAway } from "../points/cutaway";
import type { Stage } from "../stage/stage";

const raycaster = new THREE.Raycaster();

/** Pick id of the nearest pickable point along the ray through CSS pixel (x, y); 0 for none. */
export function raycastPick(stage: Stage, x: number, y: number): number {
  const { width, height } = stage.size;
  raycaster.setFromCamera(new THREE.Vector2((x / width) * 2 - 1, 1 - (y / height) * 2), stage.camera);
  raycaster.params.Points = { threshold: ((PICK_WINDOW - 1) / 2) * stage.worldPerPixel() };
  const clouds = stage.allClouds().filter((c) => c.pickGroup.visible);
  const byGroup = new Map<THREE.Object3D | null, (typeof clouds)[number]>(clouds.map((c) => [c.group, c]));
  for (const hit of raycaster.intersectObjects(clouds.map((c) => c.group), true)) {
    const cloud = byGroup.get(hit.object.parent);
    const u = cloud?.material.uniforms;
    // the shaders' clip (pointMaterial.ts): heights in the scene, below any lift
    if (cloud && u && hit.point.z - u.uLift.value <= Math.min(u.uClipZ.value, u.uSectionZ.value) && !cutAway(u.uCutaway.value, hit.point)) {
      return cloud.pickId;
    }
  }
  // a tiled view: the drawn tiles' points, each naming its item, clipped as drawn (not lifted: floors apart miss)
  const tiles = stage.tiles;
  for (const hit of tiles ? raycaster.intersectObjects(tiles.drawnPoints(), false) : []) {
    const item = tiles!.dataOf(hit.object)?.items[hit.index ?? -1];
    const id = item === undefined ? 0 : tiles!.states.pickIdOf(item);
    if (id && hit.point.z <= Math.min(tiles!.states.clipOf(item!), stage.section)) return id;
  }
  return 0;
}
