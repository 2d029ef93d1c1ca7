// The 3D side of the viewer: renderer, camera, orbit controls, the point clouds, framing, picking and
// screen projection. It knows items and styles, not sessions or the DOM around it (app.ts does that).
// Frames are drawn on demand (camera moved, cloud added, style changed), never in an idle loop.

import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import type { Bounds } from "./api";
import type { Item } from "./model";
import { GpuPicker } from "./picking";
import type { ChunkedPoints } from "./chunks";
import { applyStyle, displayMaterial, pickMaterial, setPickId, sharedUniforms, worldPointSize, type CloudStyle } from "./pointMaterial";

/**
 * One item on the stage: a group holding one Points per spatial chunk (all sharing the item's attributes
 * and material; each one's matrix maps the unit cube onto the item's bounds); the same for the pick pass.
 */
export interface Cloud {
  item: Item;
  data: ChunkedPoints;
  group: THREE.Group;
  pickGroup: THREE.Group;
  material: THREE.ShaderMaterial;
  pickMaterial: THREE.ShaderMaterial;
  pickId: number;
}
// How far below a room's top its structure is cut, so that the inside is seen from above.
const CEILING_CUT_M = 0.2;
// Framing one small object shows a little of the room around it too.
const MIN_FRAME_RADIUS_M = 1.0;

export class Stage {
  readonly renderer: THREE.WebGLRenderer;
  readonly camera = new THREE.PerspectiveCamera(50, 1, 0.05, 2000);
  readonly controls: OrbitControls;
  // Two passes: the scene, then — after clearing depth — what must never be hidden (candidates, the focus),
  // so that a chair under a table or an object behind a wall stays in sight and matches what picks.
  private readonly scene = new THREE.Scene();
  private readonly overlayScene = new THREE.Scene();
  private readonly pickScene = new THREE.Scene();
  private readonly root = new THREE.Group();
  private readonly overlayRoot = new THREE.Group();
  private readonly pickRoot = new THREE.Group();
  private readonly shared = sharedUniforms();
  private readonly picker: GpuPicker;
  private readonly clouds = new Map<string, Cloud>();
  private outlines: THREE.Box3Helper[] = [];
  private frameRequested = 0;
  private frameDelayed = 0;
  private lastFrame = -Infinity;
  private width = 1;
  private height = 1;
  private readonly resizeObserver: ResizeObserver;
  /** Called after every frame (labels follow the camera). */
  onRender: () => void = () => undefined;

  constructor(private readonly container: HTMLElement) {
    this.renderer = new THREE.WebGLRenderer({ antialias: false, powerPreference: "high-performance" });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(0x14161a, 1);
    this.renderer.domElement.className = "sv-canvas";
    container.appendChild(this.renderer.domElement);
    this.camera.up.set(0, 0, 1);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener("change", () => this.requestRender());
    this.renderer.autoClear = false;
    this.scene.add(this.root);
    this.overlayScene.add(this.overlayRoot);
    this.pickScene.add(this.pickRoot);
    this.picker = new GpuPicker(this.renderer);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  get canvas(): HTMLCanvasElement {
    return this.renderer.domElement;
  }

  /** Scenes whose up axis is not z are turned so that it is (the camera orbits around z). */
  setUpAxis(axis: "x" | "y" | "z"): void {
    const r = axis === "y" ? [Math.PI / 2, 0, 0] : axis === "x" ? [0, -Math.PI / 2, 0] : [0, 0, 0];
    for (const group of [this.root, this.overlayRoot, this.pickRoot]) {
      group.rotation.set(r[0], r[1], r[2]);
      group.updateMatrixWorld(true);
    }
  }

  private resize(): void {
    this.width = Math.max(1, this.container.clientWidth);
    this.height = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(this.width, this.height, false);
    this.camera.aspect = this.width / this.height;
    this.camera.updateProjectionMatrix();
    const ratio = this.renderer.getPixelRatio();
    this.shared.uScale.value = (this.height * ratio) / (2 * Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2));
    this.shared.uMinPx.value = 1.5 * ratio;
    this.shared.uMaxPx.value = 18 * ratio;
    this.requestRender(); // the canvas was cleared by the new size
  }

  /** Add one item's points: attributes are the fetched arrays (reordered by chunk), uploaded once for both passes. */
  addCloud(item: Item, data: ChunkedPoints): Cloud {
    const position = new THREE.BufferAttribute(data.positions, 3, true);
    const rgb = new THREE.BufferAttribute(data.colors, 3, true);
    const size = data.max.map((hi, k) => hi - data.min[k]) as [number, number, number];
    const clipZ = item.kind === "room" && size[2] > 1.5 ? data.max[2] - CEILING_CUT_M : Infinity;
    const material = displayMaterial(this.shared, worldPointSize(item.kind, size, data.count), clipZ);
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
    // The item's transform sits on each chunk, not on the group: Raycaster scales its threshold by the
    // scale of the Points it tests.
    for (const g of [group, pickGroup]) {
      g.name = item.code;
      for (const chunk of g.children) {
        chunk.position.set(data.min[0], data.min[1], data.min[2]);
        chunk.scale.set(size[0] || 1, size[1] || 1, size[2] || 1);
        chunk.matrixAutoUpdate = false;
        chunk.updateMatrix();
      }
    }
    pickGroup.visible = false;
    this.root.add(group);
    this.pickRoot.add(pickGroup);
    group.updateMatrixWorld(true);
    pickGroup.updateMatrixWorld(true);
    for (const chunk of pickGroup.children as THREE.Points[]) {
      // culled by their boxes in the pick pass (tighter than the spheres the renderer tests)
      chunk.frustumCulled = false;
      chunk.userData.box = chunk.geometry.boundingBox!.clone().applyMatrix4(chunk.matrixWorld);
    }
    const cloud: Cloud = { item, data, group, pickGroup, material, pickMaterial: pick, pickId: 0 };
    this.clouds.set(item.code, cloud);
    return cloud;
  }

  cloud(code: string): Cloud | undefined {
    return this.clouds.get(code);
  }

  allClouds(): Cloud[] {
    return [...this.clouds.values()];
  }

  /** Style, visibility, pick id (0 = not pickable) of one cloud, and whether it is drawn over everything else. */
  setStyle(cloud: Cloud, style: CloudStyle, visible: boolean, pickId: number, onTop: boolean): void {
    applyStyle(cloud.material, style);
    const parent = onTop ? this.overlayRoot : this.root;
    if (cloud.group.parent !== parent) {
      parent.add(cloud.group); // add() takes it out of the other one
      cloud.group.updateMatrixWorld(true);
    }
    cloud.group.visible = visible;
    cloud.pickGroup.visible = visible && pickId > 0;
    if (pickId !== cloud.pickId) {
      setPickId(cloud.pickMaterial, pickId);
      cloud.pickId = pickId;
    }
  }

  /** Boxes drawn around items (candidates, picks, focus): an outline as well as the tint. */
  setOutlines(boxes: { bounds: Bounds; color: THREE.Color }[]): void {
    for (const helper of this.outlines) {
      this.overlayRoot.remove(helper);
      helper.dispose();
    }
    this.outlines = boxes.map(({ bounds, color }) => {
      const helper = new THREE.Box3Helper(new THREE.Box3(new THREE.Vector3(...bounds.min), new THREE.Vector3(...bounds.max)), color);
      this.overlayRoot.add(helper);
      helper.updateMatrixWorld(true);
      return helper;
    });
    this.requestRender();
  }

  /** Remove every cloud (a new view replaces the old). */
  clear(): void {
    for (const cloud of this.clouds.values()) {
      cloud.group.removeFromParent();
      cloud.pickGroup.removeFromParent();
      for (const chunk of cloud.group.children) (chunk as THREE.Points).geometry.dispose();
      cloud.material.dispose();
      cloud.pickMaterial.dispose();
    }
    this.clouds.clear();
    this.setOutlines([]);
  }

  /**
   * Aim the camera at `bounds` from the south, above, so that all of it is in view in the part of the
   * canvas right of `insetLeft` CSS pixels (where the side panel does not cover it).
   */
  frame(bounds: Bounds, insetLeft = 0): void {
    const box = new THREE.Box3(new THREE.Vector3(...bounds.min), new THREE.Vector3(...bounds.max)).applyMatrix4(this.root.matrixWorld);
    const center = box.getCenter(new THREE.Vector3());
    const radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, MIN_FRAME_RADIUS_M);
    const inset = Math.min(insetLeft, this.width * 0.45);
    const fov = THREE.MathUtils.degToRad(this.camera.fov);
    const freeAspect = (this.width - inset) / this.height;
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * freeAspect));
    const distance = (radius / Math.sin(fit / 2)) * 1.02;
    const direction = new THREE.Vector3(0.25, -0.75, 0.95).normalize();
    // Shift the view sideways by half the inset, so that the centre lands in the middle of the free part.
    const right = new THREE.Vector3().crossVectors(direction, this.camera.up).normalize().negate();
    const worldPerPx = (2 * distance * Math.tan(fov / 2)) / this.height;
    center.addScaledVector(right, (-inset / 2) * worldPerPx);
    this.camera.position.copy(center).addScaledVector(direction, distance);
    this.camera.near = Math.max(0.01, distance / 500);
    this.camera.far = distance * 20 + radius * 10;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.maxDistance = distance * 8;
    this.controls.update();
    this.requestRender();
  }

  /** Draw at the next animation frame; with `spacingMs`, no sooner than that after the last frame (while loading). */
  requestRender(spacingMs = 0): void {
    if (this.frameRequested || this.frameDelayed) return;
    const wait = this.lastFrame + spacingMs - performance.now();
    if (wait > 0) {
      this.frameDelayed = window.setTimeout(() => {
        this.frameDelayed = 0;
        this.requestRender();
      }, wait);
      return;
    }
    this.frameRequested = requestAnimationFrame(() => this.renderNow());
  }

  renderNow(): void {
    if (this.frameRequested) cancelAnimationFrame(this.frameRequested);
    if (this.frameDelayed) clearTimeout(this.frameDelayed);
    this.frameRequested = this.frameDelayed = 0;
    this.renderer.clear();
    this.renderer.render(this.scene, this.camera);
    this.renderer.clearDepth();
    this.renderer.render(this.overlayScene, this.camera);
    this.lastFrame = performance.now();
    this.onRender();
  }

  /** Wait until the GPU has drawn what was submitted (one pixel read forces it; used for timings). */
  sync(): void {
    const gl = this.renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  }

  /** Pick id under CSS pixel (x, y) of the canvas (GPU id picking), 0 for none. */
  pick(x: number, y: number): number {
    return this.picker.pick(this.pickScene, this.camera, x, y, (frustum) => {
      for (const cloud of this.clouds.values()) {
        if (!cloud.pickGroup.visible) continue;
        for (const chunk of cloud.pickGroup.children) chunk.visible = frustum.intersectsBox(chunk.userData.box as THREE.Box3);
      }
    });
  }

  /** Canvas CSS pixel of a point in scene coordinates, or null behind the camera or off the canvas. */
  project(p: THREE.Vector3): { x: number; y: number } | null {
    const v = p.clone().applyMatrix4(this.root.matrixWorld).project(this.camera);
    if (v.z < -1 || v.z > 1 || Math.abs(v.x) > 1 || Math.abs(v.y) > 1) return null;
    return { x: ((v.x + 1) / 2) * this.width, y: ((1 - v.y) / 2) * this.height };
  }

  /** World distance that one CSS pixel covers at the orbit target (for the raycast baseline's threshold). */
  worldPerPixel(): number {
    const distance = this.camera.position.distanceTo(this.controls.target);
    return (distance * this.renderer.getPixelRatio()) / this.shared.uScale.value;
  }

  get size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  dispose(): void {
    this.clear();
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.picker.dispose();
    this.renderer.dispose();
  }
}
