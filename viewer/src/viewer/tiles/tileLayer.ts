// A scene drawn from its level-of-detail tiles (tileData.ts): before every frame the stage asks which
// nodes the camera needs under the point budget (tileLod.ts); those loaded are drawn, the others are
// fetched (a few at a time, most important first) and drawn once they arrive. Each node is one Points for
// display and one for the GPU pick pass, sharing its buffers; every point carries its item id, so picks,
// styles and hiding stay per item at any level of detail (itemStates.ts, tileMaterial.ts). Nodes not
// drawn for a while are dropped once more than twice the budget is on the GPU.

import * as THREE from "three";
import type { Bounds } from "../data/api";
import { ItemStates } from "./itemStates";
import type { SharedUniforms } from "../points/pointMaterial";
import type { TileData, TileNode, TilesIndex } from "./tileData";
import { chooseTiles, type LodView } from "./tileLod";
import { tileMaterials } from "./tileMaterial";

const CONCURRENCY = 6;
// Children are visited while a node's points lie more than this many device pixels apart.
const MIN_SPACING_PX = 1.5;
// A point's world size is this share of the spacing of the finest level drawn where it is.
const SIZE_OF_SPACING = 1.25;

export interface TileSource {
  index: TilesIndex;
  root: TileNode;
  fetch(node: TileNode, signal: AbortSignal): Promise<TileData>;
}

interface LoadedTile {
  node: TileNode;
  data: TileData;
  display: THREE.Points;
  pick: THREE.Points;
  materials: ReturnType<typeof tileMaterials>;
  lastDrawn: number;
}

/** A span of the up axis (scene metres) lifted by `lift` (a floor, when floors are exploded). */
export interface LiftSpan {
  lo: number;
  hi: number;
  lift: number;
}

export class TileLayer {
  readonly group = new THREE.Group();
  readonly pickGroup = new THREE.Group();
  readonly states: ItemStates;
  /** Points fetched so far (for the progress line). */
  pointsLoaded = 0;
  private readonly loaded = new Map<string, LoadedTile>();
  private readonly inFlight = new Set<string>();
  private readonly abort = new AbortController();
  private readonly boxes = new Map<string, THREE.Box3>();
  private readonly relevance = new Map<string, boolean>();
  private shown: Bounds[] = [];
  private lifts: LiftSpan[] = [];
  private drawn: LoadedTile[] = [];
  private wanted: TileNode[] = [];
  private frame = 0;
  private failure: unknown = null;
  private view: LodView | null = null;
  private readonly waiters: { resolve: () => void; reject: (reason: unknown) => void }[] = [];
  /** Called when a tile arrives (draw again) and when one fails to load. */
  onChange: () => void = () => undefined;

  constructor(private readonly source: TileSource, private readonly shared: SharedUniforms, private readonly upIndex: number,
              readonly budget: number) {
    this.states = new ItemStates(source.index.items.length);
    this.group.name = this.pickGroup.name = "tiles";
  }

  /** What the view shows (scene bounds of its visible items): nodes that hold none of it are never fetched. */
  setShown(bounds: Bounds[]): void {
    this.shown = bounds;
    this.relevance.clear();
  }

  /** Floors lifted apart (or not): node boxes grow by the lifts of what they may hold. */
  setLifts(spans: LiftSpan[]): void {
    this.lifts = spans;
    this.boxes.clear();
  }

  /** True while nodes the camera needs are still on their way (after the last `update`). */
  get pending(): boolean {
    return this.wanted.length > 0 || this.inFlight.size > 0;
  }

  /** Choose the nodes for this camera, show them, ask for the missing ones. Call before drawing a frame. */
  update(camera: THREE.PerspectiveCamera, pixelsPerUnit: number): void {
    this.frame++;
    camera.updateMatrixWorld();
    const frustum = new THREE.Frustum().setFromProjectionMatrix(
      new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
    this.view = { eye: camera.getWorldPosition(new THREE.Vector3()), frustum, pixelsPerUnit };
    this.choose();
  }

  /** Resolves once every node the camera needs is loaded (after the next updates); rejects when one fails. */
  settled(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      this.notify();
    });
  }

  private notify(): void {
    if (this.failure === null && (this.pending || !this.view)) return;
    const waiters = this.waiters.splice(0);
    for (const w of waiters) {
      if (this.failure !== null) w.reject(this.failure);
      else w.resolve();
    }
  }

  private choose(): void {
    const view = this.view;
    if (!view) return;
    const choice = chooseTiles(this.source.root, view, {
      budget: this.budget, minSpacingPx: MIN_SPACING_PX, spacing: this.source.index.spacing,
      box: (node) => this.boxOf(node), relevant: (node) => this.isRelevant(node), loaded: (node) => this.loaded.has(node.name),
    });
    for (const tile of this.drawn) tile.display.visible = tile.pick.visible = false;
    this.drawn = choice.drawn.map((node) => this.loaded.get(node.name)!);
    const drawnNames = new Set(choice.drawn.map((n) => n.name));
    const finest = new Map<string, number>();
    const finestLevel = (node: TileNode): number => {
      let level = finest.get(node.name);
      if (level !== undefined) return level;
      const below = node.children.filter((c) => drawnNames.has(c.name));
      level = below.length ? Math.min(...below.map(finestLevel)) : node.level;
      finest.set(node.name, level);
      return level;
    };
    const spacing = this.source.index.spacing;
    for (const tile of this.drawn) {
      tile.display.visible = tile.pick.visible = true;
      tile.lastDrawn = this.frame;
      tile.materials.display.uniforms.uWorldSize.value = SIZE_OF_SPACING * spacing[Math.min(finestLevel(tile.node), spacing.length - 1)];
    }
    this.wanted = choice.wanted;
    this.fetchWanted();
    this.evict();
    this.notify();
  }

  /** In the pick pass, only the drawn tiles whose boxes meet the pick window's frustum. */
  cullForPick(frustum: THREE.Frustum): void {
    for (const tile of this.drawn) tile.pick.visible = frustum.intersectsBox(this.boxOf(tile.node));
  }

  /** Item ids of the drawn points, with their tile's points: for finding where an item shows (screenPosition.ts). */
  drawnTiles(): { node: TileNode; data: TileData }[] {
    return this.drawn.map((t) => ({ node: t.node, data: t.data }));
  }

  /** The drawn Points (display), for three's Raycaster (the benchmark's baseline). */
  drawnPoints(): THREE.Points[] {
    return this.drawn.map((t) => t.display);
  }

  /** The tile data behind a drawn Points object. */
  dataOf(points: THREE.Object3D): TileData | null {
    return (points.userData.tile as TileData | undefined) ?? null;
  }

  private boxOf(node: TileNode): THREE.Box3 {
    let box = this.boxes.get(node.name);
    if (!box) {
      const min = [...node.min];
      const max = node.min.map((v) => v + node.side);
      const up = this.upIndex;
      let lo = 0;
      let hi = 0;
      for (const span of this.lifts) {
        if (span.hi >= min[up] && span.lo <= max[up]) {
          lo = Math.min(lo, span.lift);
          hi = Math.max(hi, span.lift);
        }
      }
      min[up] += lo;
      max[up] += hi;
      box = new THREE.Box3(new THREE.Vector3().fromArray(min), new THREE.Vector3().fromArray(max)).applyMatrix4(this.group.matrixWorld);
      this.boxes.set(node.name, box);
    }
    return box;
  }

  private isRelevant(node: TileNode): boolean {
    let relevant = this.relevance.get(node.name);
    if (relevant === undefined) {
      const hi = node.min.map((v) => v + node.side);
      relevant = this.shown.some((b) => b.min.every((v, k) => v <= hi[k]) && b.max.every((v, k) => v >= node.min[k]));
      this.relevance.set(node.name, relevant);
    }
    return relevant;
  }

  private fetchWanted(): void {
    for (const node of this.wanted) {
      if (this.inFlight.size >= CONCURRENCY) return;
      if (this.inFlight.has(node.name) || this.loaded.has(node.name)) continue;
      this.inFlight.add(node.name);
      this.source.fetch(node, this.abort.signal).then(
        (data) => {
          this.inFlight.delete(node.name);
          if (this.abort.signal.aborted) return;
          this.add(node, data);
          this.choose(); // what to fetch next, without waiting for a frame
          this.onChange();
        },
        (exc) => {
          this.inFlight.delete(node.name);
          if (this.abort.signal.aborted) return;
          this.failure ??= exc;
          this.notify();
          this.onChange();
        },
      );
    }
  }

  private add(node: TileNode, data: TileData): void {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(data.positions, 3, true));
    geometry.setAttribute("rgb", new THREE.BufferAttribute(data.colors, 3, true));
    geometry.setAttribute("itemId", new THREE.BufferAttribute(data.items, 1)); // uint32: an integer attribute
    geometry.boundingBox = new THREE.Box3(new THREE.Vector3(0, 0, 0), new THREE.Vector3(1, 1, 1));
    geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new THREE.Sphere());
    const materials = tileMaterials(this.shared, this.states.texture, this.source.index.spacing[node.level] ?? 0.01);
    const display = new THREE.Points(geometry, materials.display);
    const pick = new THREE.Points(geometry, materials.pick);
    for (const points of [display, pick]) {
      points.name = node.name;
      points.position.set(...node.min);
      points.scale.setScalar(node.side);
      points.frustumCulled = false; // chooseTiles culls by node boxes that include lifts
      points.visible = false;
      points.userData.tile = data;
      points.updateMatrix();
      points.matrixAutoUpdate = false;
    }
    this.group.add(display);
    this.pickGroup.add(pick);
    display.updateMatrixWorld(true);
    pick.updateMatrixWorld(true);
    this.loaded.set(node.name, { node, data, display, pick, materials, lastDrawn: 0 });
    this.pointsLoaded += data.count;
  }

  /** Drop the tiles drawn longest ago while more than twice the budget is loaded. */
  private evict(): void {
    let total = 0;
    for (const tile of this.loaded.values()) total += tile.data.count;
    if (total <= 2 * this.budget) return;
    const old = [...this.loaded.values()].filter((t) => t.lastDrawn < this.frame).sort((a, b) => a.lastDrawn - b.lastDrawn);
    for (const tile of old) {
      if (total <= 2 * this.budget) break;
      this.drop(tile);
      total -= tile.data.count;
    }
  }

  private drop(tile: LoadedTile): void {
    tile.display.removeFromParent();
    tile.pick.removeFromParent();
    tile.display.geometry.dispose();
    tile.materials.display.dispose();
    tile.materials.pick.dispose();
    this.loaded.delete(tile.node.name);
  }

  dispose(): void {
    this.abort.abort();
    this.waiters.splice(0);
    for (const tile of [...this.loaded.values()]) this.drop(tile);
    this.group.removeFromParent();
    this.pickGroup.removeFromParent();
    this.states.dispose();
  }
}
