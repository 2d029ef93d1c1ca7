// The 3D side of the viewer: renderer, camera, orbit controls, the point clouds, framing, picking and
// screen projection. It knows items and styles, not sessions or the DOM around it (the app does that: app/).
// Frames are drawn on demand (camera moved, cloud added, style changed), never in an idle loop.
// Framing (framing.ts) fits what is framed into the part of the canvas that nothing covers (visible
// rectangles the app gives): the camera's principal point moves to that part's centre (a view offset),
// so that orbiting turns around what was framed and keeps it there.

import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import type { Bounds } from "../data/api";
import type { Item } from "../data/model";
import { GpuPicker } from "../picking/picking";
import type { ChunkedPoints } from "../points/chunks";
import { applyClipBox, type ClipBox } from "./clipBox";
import { clampRect, fitBox, type ScreenRect } from "./framing";
import { projectBounds, projectPoint, type View } from "./projection";
import { Outlines, type OutlineSpec } from "./outlines";
import { makeCloud, placeCloud, type Cloud } from "../points/clouds";
import { cutawayPlane, NO_CUTAWAY } from "../points/cutaway";
import { applyStyle, setPickId, sharedUniforms, type CloudStyle } from "../points/pointMaterial";
import { TileLayer, type TileSource } from "../tiles/tileLayer";

export type { ScreenRect } from "./framing";
export type { Cloud } from "../points/clouds";

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
  private tileLayer: TileLayer | null = null;
  /** The room looked inside, its near walls cut away (setCutaway). */
  private cutRoom: Cloud | null = null;
  private readonly outlines: Outlines;
  // The principal point (where the orbit target is drawn) in NDC, set by frame(); kept across resizes.
  private principal = { x: 0, y: 0 };
  /** The part of the canvas the last framing used (for tests: window.sceneViewer.view.framedRect). */
  framedRect: ScreenRect | null = null;
  // What the last framing showed, until the user moves the camera (then null).
  private framed: Bounds | null = null;
  private upIndex = 2;
  private frameRequested = 0;
  private frameDelayed = 0;
  private lastFrame = -Infinity;
  private width = 1;
  private height = 1;
  private readonly resizeObserver: ResizeObserver;
  /** Called after every frame (labels follow the camera). */
  onRender: () => void = () => undefined;
  /** Points drawn by the last frame (both passes), and the most drawn by any frame since the last clear(). */
  pointsDrawn = 0;
  pointsDrawnMax = 0;

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
    this.controls.addEventListener("start", () => (this.framed = null)); // the user moves the camera: theirs now
    this.renderer.autoClear = false;
    this.renderer.info.autoReset = false; // one frame is two render calls: counted together (renderNow)
    this.scene.add(this.root);
    this.overlayScene.add(this.overlayRoot);
    this.pickScene.add(this.pickRoot);
    this.outlines = new Outlines(this.overlayRoot);
    this.picker = new GpuPicker(this.renderer);
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  get canvas(): HTMLCanvasElement { return this.renderer.domElement; }

  /** Scenes whose up axis is not z are turned so that it is (the camera orbits around z). */
  setUpAxis(axis: "x" | "y" | "z"): void {
    const r = axis === "y" ? [Math.PI / 2, 0, 0] : axis === "x" ? [0, -Math.PI / 2, 0] : [0, 0, 0];
    this.upIndex = { x: 0, y: 1, z: 2 }[axis];
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
    this.applyPrincipal();
    const ratio = this.renderer.getPixelRatio();
    this.shared.uScale.value = (this.height * ratio) / (2 * Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2));
    this.shared.uMinPx.value = 1.5 * ratio;
    // the cap for points at the orbit target's distance; nearer ones get less (pointMaterial.ts)
    this.shared.uMaxPx.value = 12 * ratio;
    this.requestRender(); // the canvas was cleared by the new size
  }

  /** Add one item's points (clouds.ts); the same buffers serve both passes. */
  addCloud(item: Item, data: ChunkedPoints): Cloud {
    const cloud = makeCloud(item, data, this.shared);
    this.root.add(cloud.group);
    this.pickRoot.add(cloud.pickGroup);
    placeCloud(cloud, this.upIndex);
    this.clouds.set(item.code, cloud);
    return cloud;
  }

  /** Draw a scene's tiles (under `budget` points) beside the clouds; they stay until `clear`. */
  showTiles(source: TileSource, budget: number): TileLayer {
    this.tileLayer?.dispose();
    const layer = new TileLayer(source, this.shared, this.upIndex, budget);
    this.root.add(layer.group);
    this.pickRoot.add(layer.pickGroup);
    layer.group.updateMatrixWorld(true);
    layer.pickGroup.updateMatrixWorld(true);
    this.tileLayer = layer;
    return layer;
  }

  /** Choose the tiles for the camera as it is now (and fetch what is missing) without drawing. */
  refreshTiles(): void {
    this.tileLayer?.update(this.camera, this.shared.uScale.value);
  }

  get tiles(): TileLayer | null { return this.tileLayer; }

  /** Move every cloud to its item's lift (after explodeFloors changed them). */
  relift(): void {
    for (const cloud of this.clouds.values()) placeCloud(cloud, this.upIndex);
    this.requestRender();
  }

  /** The user's point size (a factor on every point's size). */
  setPointScale(scale: number): void {
    this.shared.uSizeScale.value = scale;
    this.requestRender();
  }

  /** Nothing above this height in the scene (before any lift) is drawn or picked; Infinity: no section. */
  setSection(z: number): void {
    this.shared.uSectionZ.value = Number.isFinite(z) ? z : 1e9;
    this.requestRender();
  }

  get section(): number {
    return this.shared.uSectionZ.value >= 1e9 ? Infinity : this.shared.uSectionZ.value;
  }

  /** Nothing outside this box in the scene (null: none) is drawn or picked (clipBox.ts). */
  setClipBox(box: ClipBox | null): void {
    applyClipBox(this.shared, box, this.root.matrixWorld);
    this.requestRender();
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

  /** Boxes drawn around items (candidates, picks, the hovered one, a view's focus): what marks them. */
  setOutlines(boxes: OutlineSpec[]): void {
    this.outlines.set(boxes);
    this.requestRender();
  }

  /** Draw `object` (in scene coordinates) over everything else, as the outlines are: measurements (measure/drawing.ts). */
  addOverlay(object: THREE.Object3D): void {
    this.overlayRoot.add(object);
    object.updateMatrixWorld(true);
  }

  /** Scene coordinates → world: the turn that puts a y- or x-up scene's up axis on z. */
  get sceneMatrix(): THREE.Matrix4 {
    return this.root.matrixWorld;
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
    this.cutRoom = null;
    this.tileLayer?.dispose();
    this.tileLayer = null;
    this.pointsDrawn = this.pointsDrawnMax = 0;
    this.setOutlines([]);
  }

  /**
   * Aim the camera at `bounds` from the south, above, as close as it can be with every corner of them
   * inside `visible` (the part of the canvas nothing covers; several: the one that shows them largest;
   * a number: the CSS pixels a panel covers on the left, as before) with a margin. The camera's principal
   * point moves to the middle of that part.
   */
  frame(bounds: Bounds, visible: ScreenRect | ScreenRect[] | number = 0): void {
    const inset = typeof visible === "number" ? Math.min(visible, this.width * 0.45) : 0;
    const rects = typeof visible === "number" ? [{ left: inset, top: 0, width: this.width - inset, height: this.height }]
      : (Array.isArray(visible) ? visible : [visible]).map((r) => clampRect(r, this.width, this.height));
    const box = boxIn(bounds, this.root);
    const fit = fitBox(box, rects, { width: this.width, height: this.height, fov: this.camera.fov, up: this.camera.up });
    this.principal = fit.principal;
    this.framedRect = fit.rect;
    this.framed = bounds;
    this.camera.position.copy(fit.center).addScaledVector(fit.back, fit.distance);
    this.camera.near = Math.max(0.01, fit.distance / 500);
    this.camera.far = fit.distance * 20 + fit.radius * 10;
    this.applyPrincipal();
    this.controls.target.copy(fit.center);
    this.controls.maxDistance = fit.distance * 8;
    this.controls.update();
    this.camera.updateMatrixWorld(); // what is framed projects where it will be drawn, before the next frame
    this.requestRender();
  }

  /**
   * What the last framing showed, while the user has not moved the camera since: framed again (framing.ts)
   * when something now covers part of it (a panel grew), so that it stays clear of the panels.
   */
  get framedBounds(): Bounds | null {
    return this.framed;
  }

  /** The camera's projection with the principal point at `this.principal` (a view offset over the whole canvas). */
  private applyPrincipal(): void {
    const { x, y } = this.principal;
    if (x === 0 && y === 0) this.camera.clearViewOffset();
    // the canvas is a window of a same-sized frame moved by (ox, oy): the frame's centre lands at NDC (x, y)
    else this.camera.setViewOffset(this.width, this.height, (-x * this.width) / 2, (y * this.height) / 2, this.width, this.height);
    this.camera.updateProjectionMatrix();
  }

  /** The camera at `position`, looking at `target` (world coordinates, or the scene's with `inScene`): a move of the
   *  user's (keys, a shared link). */
  placeCamera(position: THREE.Vector3, target: THREE.Vector3, inScene = false): void {
    if (inScene) [position, target] = [position.clone(), target.clone()].map((p) => p.applyMatrix4(this.root.matrixWorld));
    const distance = Math.max(position.distanceTo(target), 1e-3);
    this.framed = null;
    this.camera.position.copy(position);
    this.controls.target.copy(target);
    this.camera.near = Math.max(0.01, distance / 500);
    this.camera.far = Math.max(this.camera.far, distance * 20);
    this.camera.updateProjectionMatrix();
    this.controls.maxDistance = Math.max(this.controls.maxDistance, distance * 2);
    this.controls.update();
    this.requestRender();
  }

  /** The 3D view as a PNG (a data URL): drawn now and read before the browser may clear it. */
  snapshot(): string {
    this.renderNow();
    return this.renderer.domElement.toDataURL("image/png");
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
    // nearer than the target, points get a lower size cap (pointMaterial.ts)
    this.shared.uFocusDist.value = Math.max(1e-3, this.camera.position.distanceTo(this.controls.target));
    this.tileLayer?.update(this.camera, this.shared.uScale.value); // which tiles this camera needs
    const cut = this.cutRoom;
    if (cut) cutawayPlane(boxIn(cut.item.bounds, this.root), this.camera.position, this.controls.target, cut.material.uniforms.uCutaway.value);
    this.renderer.info.reset();
    this.renderer.clear();
    this.renderer.render(this.scene, this.camera);
    this.renderer.clearDepth();
    this.renderer.render(this.overlayScene, this.camera);
    this.pointsDrawn = this.renderer.info.render.points;
    this.pointsDrawnMax = Math.max(this.pointsDrawnMax, this.pointsDrawn);
    this.lastFrame = performance.now();
    this.onRender();
  }

  /** Draw now and wait until the GPU has drawn it (one pixel read forces it): what a timing should see. */
  drawNow(): void {
    this.renderNow();
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
      this.tileLayer?.cullForPick(frustum);
    });
  }

  /** Canvas CSS pixel of a point in scene coordinates, or null behind the camera or off the canvas. */
  project(p: THREE.Vector3): { x: number; y: number } | null {
    return projectPoint(this.projection, p);
  }

  /** The canvas rectangle (CSS pixels) that a box in scene coordinates covers, or null if any corner is behind the camera. */
  projectBox(bounds: Bounds): ScreenRect | null {
    return projectBounds(this.projection, bounds);
  }

  private get projection(): View {
    return { matrixWorld: this.root.matrixWorld, camera: this.camera, width: this.width, height: this.height };
  }

  /** World distance that one CSS pixel covers at the orbit target (for the raycast baseline's threshold). */
  worldPerPixel(): number {
    return (this.camera.position.distanceTo(this.controls.target) * this.renderer.getPixelRatio()) / this.shared.uScale.value;
  }

  /** Looking inside the room `code` (null: none): its near walls cut away (points/cutaway.ts). */
  setCutaway(code: string | null): void {
    const cloud = code === null ? null : this.clouds.get(code) ?? null;
    if (cloud === this.cutRoom) return;
    this.cutRoom?.material.uniforms.uCutaway.value.copy(NO_CUTAWAY);
    this.cutRoom = cloud;
    this.requestRender();
  }

  get size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  dispose(): void {
    this.clear();
    this.outlines.dispose();
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.picker.dispose();
    this.renderer.dispose();
  }
}

/** Scene bounds as a box in world coordinates (`root` turns the scene's up axis to z). */
function boxIn(bounds: Bounds, root: THREE.Object3D): THREE.Box3 {
  return new THREE.Box3(new THREE.Vector3(...bounds.min), new THREE.Vector3(...bounds.max)).applyMatrix4(root.matrixWorld);
}
