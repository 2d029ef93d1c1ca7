// Where a measuring click lands: the actual scene point under the cursor, not a position guessed from the depth
// buffer. The points drawn near the cursor are projected on the CPU — only those of the chunks (points/chunks.ts)
// and tiles whose boxes reach the cursor's neighbourhood, so a click costs a few thousand projections — with the
// same rules as the shaders (hidden items, a room's ceiling cut, the section height, floors lifted apart), and their
// discs drawn again into a small depth buffer: the click lands on the surface seen at the cursor (a table's top,
// never its underside hidden a few centimetres below), on the point of it whose centre is nearest the cursor. Any
// drawn point counts, pickable or not: in a pick, measuring reaches the dimmed context too.

import * as THREE from "three";
import { cutAway } from "../points/cutaway";
import type { Vec3 } from "../data/api";
import type { Stage } from "../stage/stage";
import type { TiledView } from "../tiles/tiledView";

/** A scene point a click landed on. */
export interface SnappedPoint {
  /** Scene coordinates (before any lift: where the point is). */
  at: Vec3;
  /** Metres it is drawn above that along the up axis (exploded floors). */
  lift: number;
  /** The room (its structure) or object it belongs to. */
  code: string;
}

// Rings searched, in CSS pixels from the cursor, when no drawn disc covers it: the first that holds a point decides.
const RINGS_PX = [4, 9, 16];
// Points count as the surface seen at the cursor while their depth differs from that of the point drawn there by at
// most this much, plus what a surface seen at a grazing angle (down to ~18°) changes in depth over their distance
// on the screen.
const SURFACE_M = 0.03;
const GRAZING = 3;
// Tile points' disc radius, in CSS pixels (their sizes depend on the level drawn); the largest disc drawn again.
const TILE_DISC_PX = 2;
const DISC_MAX_PX = 12;

interface Candidate {
  d: number;
  sx: number;
  sy: number;
  depth: number;
  /** Radius of its drawn disc, CSS pixels. */
  radius: number;
  at: Vec3;
  lift: number;
  code: string;
}

const q = new THREE.Vector4();


/** Projects points (world coordinates) to canvas CSS pixels; keeps those within the largest ring of the cursor. */
class Gatherer {
  readonly found: Candidate[] = [];
  private readonly viewProjection: THREE.Matrix4;
  private readonly radius = RINGS_PX[RINGS_PX.length - 1];

  constructor(private readonly stage: Stage, private readonly x: number, private readonly y: number) {
    const camera = stage.camera;
    camera.updateMatrixWorld();
    this.viewProjection = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  }

  /** Whether a world box may hold points drawn within the largest ring of the cursor. */
  reaches(box: THREE.Box3): boolean {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let k = 0; k < 8; k++) {
      q.set(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z, 1).applyMatrix4(this.viewProjection);
      if (q.w <= 1e-6) return true; // partly behind the camera: looked into
      const [sx, sy] = this.screen(q);
      x0 = Math.min(x0, sx);
      y0 = Math.min(y0, sy);
      x1 = Math.max(x1, sx);
      y1 = Math.max(y1, sy);
    }
    const r = this.radius;
    return this.x >= x0 - r && this.x <= x1 + r && this.y >= y0 - r && this.y <= y1 + r;
  }

  private screen(v: THREE.Vector4): [number, number] {
    const { width, height } = this.stage.size;
    return [((v.x / v.w + 1) / 2) * width, ((1 - v.y / v.w) / 2) * height];
  }

  /** One drawn point at world (wx, wy, wz); `radius(depth)`: its disc's radius in CSS pixels at that depth. */
  add(wx: number, wy: number, wz: number, radius: (depth: number) => number, at: () => Vec3, lift: number, code: string): void {
    q.set(wx, wy, wz, 1).applyMatrix4(this.viewProjection);
    if (q.w <= 1e-6 || Math.abs(q.z / q.w) > 1) return;
    const [sx, sy] = this.screen(q);
    const d = Math.hypot(sx - this.x, sy - this.y);
    if (d <= this.radius) this.found.push({ d, sx, sy, depth: q.w, radius: radius(q.w), at: at(), lift, code });
  }

  /**
   * The point the click lands on. The discs drawn around the cursor are drawn again here, into a small depth buffer,
   * as the GPU does (the nearest wins each pixel): the surface seen at the cursor is that of the disc drawn there;
   * of the points of that surface that show at all (a table top's, never its underside hidden a few centimetres
   * below), the one whose centre is nearest the cursor wins. In a gap between discs, the first ring holding points
   * decides, its nearest point standing for the surface.
   */
  best(): SnappedPoint | null {
    const found = this.found;
    if (!found.length) return null;
    const shown = this.drawnAgain();
    const nearer = (a: Candidate, b: Candidate) => (b.depth < a.depth ? b : a);
    let front = shown.atCursor;
    for (const ring of RINGS_PX) {
      if (front) break;
      const inRing = found.filter((c) => c.d <= ring);
      if (inRing.length) front = inRing.reduce(nearer);
    }
    if (!front) return null;
    const f = front;
    const perPixel = this.stage.worldPerPixel() * (f.depth / this.focusDistance());
    const surface = [...shown.visible].filter((c) =>
      Math.abs(c.depth - f.depth) <= SURFACE_M + GRAZING * perPixel * Math.hypot(c.sx - f.sx, c.sy - f.sy));
    const best = surface.reduce((a, b) => (b.d < a.d ? b : a), f);
    return { at: best.at, lift: best.lift, code: best.code };
  }

  /** The candidates' discs drawn into a depth buffer of CSS pixels around the cursor: which show, and which is drawn
   *  at the cursor. */
  private drawnAgain(): { visible: Set<Candidate>; atCursor: Candidate | null } {
    const reach = this.radius + DISC_MAX_PX;
    const size = 2 * reach + 1;
    const x0 = Math.floor(this.x) - reach;
    const y0 = Math.floor(this.y) - reach;
    const depth = new Float64Array(size * size).fill(Infinity);
    const owner: (Candidate | null)[] = new Array(size * size).fill(null);
    for (const c of this.found) {
      const r = Math.min(DISC_MAX_PX, Math.max(0.5, c.radius));
      const i0 = Math.max(0, Math.floor(c.sx - r - x0));
      const i1 = Math.min(size - 1, Math.floor(c.sx + r - x0));
      const j0 = Math.max(0, Math.floor(c.sy - r - y0));
      const j1 = Math.min(size - 1, Math.floor(c.sy + r - y0));
      for (let j = j0; j <= j1; j++) {
        for (let i = i0; i <= i1; i++) {
          const k = j * size + i;
          if (Math.hypot(x0 + i + 0.5 - c.sx, y0 + j + 0.5 - c.sy) <= r && c.depth < depth[k]) {
            depth[k] = c.depth;
            owner[k] = c;
          }
        }
      }
    }
    const visible = new Set<Candidate>();
    for (const c of owner) if (c) visible.add(c);
    return { visible, atCursor: owner[(Math.floor(this.y) - y0) * size + (Math.floor(this.x) - x0)] };
  }

  private focusDistance(): number {
    return Math.max(1e-3, this.stage.camera.position.distanceTo(this.stage.controls.target));
  }
}

/** A cloud's disc radius in CSS pixels at a depth: pointPx of the shaders (pointMaterial.ts), halved. */
function discRadius(uniforms: Record<string, THREE.IUniform>, ratio: number): (depth: number) => number {
  const v = (name: string) => uniforms[name].value as number;
  return (depth) => {
    const cap = Math.max(v("uMaxPx") * Math.min(1, Math.max(0.25, depth / v("uFocusDist"))), v("uMinPx"));
    const px = Math.min(cap, Math.max(v("uMinPx"), (v("uWorldSize") * v("uScale")) / depth)) * v("uSizeScale") * v("uSizeBoost");
    return px / ratio / 2;
  };
}

/** The scene point drawn nearest canvas pixel (x, y) (CSS pixels), on the surface seen there; null when none is near. */
export function snapPoint(stage: Stage, x: number, y: number, tiled: TiledView | null): SnappedPoint | null {
  const gather = new Gatherer(stage, x, y);
  const section = stage.section;
  const world = new THREE.Vector3();
  for (const cloud of stage.allClouds()) {
    if (!cloud.group.visible) continue;
    const { source } = cloud;
    const u = cloud.material.uniforms;
    const clip = Math.min(u.uClipZ.value as number, section);
    const lift = u.uLift.value as number;
    const cut = u.uCutaway.value as THREE.Vector4;
    const radius = discRadius(u, stage.renderer.getPixelRatio());
    const size = source.max.map((hi, k) => hi - source.min[k]);
    const { positions } = source;
    for (const chunk of cloud.group.children as THREE.Points[]) {
      const range = chunk.geometry.drawRange;
      const box = chunk.geometry.boundingBox!.clone().applyMatrix4(chunk.matrixWorld);
      if (!gather.reaches(box)) continue;
      const m = chunk.matrixWorld;
      const end = Math.min(range.start + range.count, source.count);
      for (let i = range.start; i < end; i++) {
        world.set(positions[3 * i] / 65535, positions[3 * i + 1] / 65535, positions[3 * i + 2] / 65535).applyMatrix4(m);
        if (world.z - lift > clip || cutAway(cut, world)) continue; // the shaders' clip and cutaway (pointMaterial.ts)
        const k = i;
        gather.add(world.x, world.y, world.z, radius,
                   () => [0, 1, 2].map((a) => source.min[a] + (positions[3 * k + a] / 65535) * size[a]) as Vec3, lift, cloud.item.code);
      }
    }
  }
  const tiles = stage.tiles;
  if (tiles && tiled) snapTiles(stage, tiles, tiled, gather, section);
  return gather.best();
}

/** The drawn tiles' points (a large view): each names its item, drawn or not, clipped and lifted as the tile shaders do. */
function snapTiles(stage: Stage, tiles: NonNullable<Stage["tiles"]>, tiled: TiledView, gather: Gatherer, section: number): void {
  const toWorld = stage.sceneMatrix;
  const world = new THREE.Vector3();
  const lifted = tiled.model.items.some((i) => i.lift !== 0); // floors apart: a tile's points may be drawn off its box
  for (const { node, data } of tiles.drawnTiles()) {
    const hi = node.min.map((v) => v + node.side) as Vec3;
    const box = new THREE.Box3(new THREE.Vector3(...node.min), new THREE.Vector3(...hi)).applyMatrix4(toWorld);
    if (!lifted && !gather.reaches(box)) continue;
    for (let k = 0; k < data.count; k++) {
      const item = data.items[k];
      if (!tiles.states.drawnOf(item)) continue;
      const at = [0, 1, 2].map((a) => node.min[a] + (data.positions[3 * k + a] / 65535) * node.side) as Vec3;
      world.set(...at).applyMatrix4(toWorld);
      if (world.z > Math.min(tiles.states.clipOf(item), section)) continue;
      const lift = tiles.states.liftOf(item);
      const code = tiled.codeOf(item);
      if (code) gather.add(world.x, world.y, world.z + lift, () => TILE_DISC_PX, () => at, lift, code);
    }
  }
}
