// One item's points on the stage, made from its fetched (chunked) arrays: a group of Points per spatial
// chunk for display and the same for the GPU pick pass, sharing buffers; each chunk's matrix maps the
// unit cube of its quantised positions onto the item's bounds, lifted with its floor when floors are
// exploded (model.ts explodeFloors).

import * as THREE from "three";
import type { Bounds } from "../data/api";
import type { ChunkedPoints } from "./chunks";
import type { Item } from "../data/model";
import { displayMaterial, pickMaterial, worldPointSize, type SharedUniforms } from "./pointMaterial";

/**
 * One item on the stage: a group holding one Points per spatial chunk (all sharing the item's attributes
 * and material; each one's matrix maps the unit cube onto the item's bounds); the same for the pick pass.
 */
export interface Cloud {
  item: Item;
  /** The points as drawn: `source` with its bounds lifted by the item's lift (exploded floors). */
  data: ChunkedPoints;
  source: ChunkedPoints;
  lift: number;
  group: THREE.Group;
  pickGroup: THREE.Group;
  material: THREE.ShaderMaterial;
  pickMaterial: THREE.ShaderMaterial;
  pickId: number;
}

// How far below a room's top its structure is cut, so that the inside is seen from above.
const CEILING_CUT_M = 0.2;

/** The height above which an item's points are not drawn: a room's ceiling is cut; nothing else is. */
export function clipHeightOf(kind: Item["kind"], bounds: Bounds): number {
  return kind === "room" && bounds.max[2] - bounds.min[2] > 1.5 ? bounds.max[2] - CEILING_CUT_M : Infinity;
}

/** An item's cloud, not yet on the stage nor placed (placeCloud). */
export function makeCloud(item: Item, data: ChunkedPoints, shared: SharedUniforms): Cloud {
  const position = new THREE.BufferAttribute(data.positions, 3, true);
  const rgb = new THREE.BufferAttribute(data.colors, 3, true);
  const size = data.max.map((hi, k) => hi - data.min[k]) as [number, number, number];
  const clipZ = clipHeightOf(item.kind, data);
  const material = displayMaterial(shared, worldPointSize(item.kind, size, data.count), clipZ);
  const pick = pickMaterial(material, 0);
  const group = new THREE.Group();
  const pickGroup = new THREE.Group();
  for (const chunk of data.chunks) {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", position);
    geometry.setAttribute("rgb", rgb);
    geometry.setDrawRange(chunk.start, chunk.count);
    geometry.boundingBox = new THREE.Box3(new THREE.Vector3(...chunk.min), new THREE.Vector3(...chunk.max));
    geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new THREE.Sphere());
    group.add(new THREE.Points(geometry, material));
    pickGroup.add(new THREE.Points(geometry, pick));
  }
  for (const g of [group, pickGroup]) {
    g.name = item.code;
    for (const chunk of g.children) {
      chunk.scale.set(size[0] || 1, size[1] || 1, size[2] || 1);
      chunk.matrixAutoUpdate = false;
    }
  }
  pickGroup.visible = false;
  return { item, data, source: data, lift: NaN, group, pickGroup, material, pickMaterial: pick, pickId: 0 };
}

/**
 * Put a cloud where its item is drawn: its bounds, lifted by the item's lift along the up axis `up`. The
 * item's transform sits on each chunk, not on the group: Raycaster scales its threshold by the scale of
 * the Points it tests. Call once its groups are on the stage (their world matrices include the stage's).
 */
export function placeCloud(cloud: Cloud, up: number): void {
  const lift = cloud.item.lift;
  if (lift === cloud.lift) return;
    const lifted = (v: [number, number, number]) => v.map((x, k) => (k === up ? x + lift : x)) as [number, number, number];
  const { source } = cloud;
  cloud.data = lift ? { ...source, min: lifted(source.min), max: lifted(source.max) } : source;
  cloud.lift = lift;
  cloud.material.uniforms.uLift.value = lift;
  for (const g of [cloud.group, cloud.pickGroup]) {
    for (const chunk of g.children) {
      chunk.position.set(...cloud.data.min);
      chunk.updateMatrix();
    }
    g.updateMatrixWorld(true);
  }
  for (const chunk of cloud.pickGroup.children as THREE.Points[]) {
    // culled by their boxes in the pick pass (tighter than the spheres the renderer tests)
    chunk.frustumCulled = false;
    chunk.userData.box = chunk.geometry.boundingBox!.clone().applyMatrix4(chunk.matrixWorld);
  }
}
