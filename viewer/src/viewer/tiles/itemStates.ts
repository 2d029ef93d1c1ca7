// How each item of the tiles is drawn now, in a float texture the tile shaders read by the item id every
// point carries (tileMaterial.ts): the per-item uniforms of an item's own cloud (pointMaterial.ts), one
// row of texels per 512 items, so that restyling a million points is a small texture upload.
//   texel 3i     flat colour r, g, b, how much of it (0 or 1)
//   texel 3i+1   dim, size boost, lift (metres, exploded floors), clip height (scene metres; above: not drawn)
//   texel 3i+2   pick id (0: not pickable), drawn (0 or 1), -, -

import * as THREE from "three";
import type { CloudStyle } from "../points/pointMaterial";

export const ITEMS_PER_ROW = 512;
const TEXELS_PER_ITEM = 3;
const NO_CLIP = 1e9;

export interface ItemState {
  style: CloudStyle;
  visible: boolean;
  pickId: number;
  lift: number;
  clipZ: number;
}

export class ItemStates {
  readonly texture: THREE.DataTexture;
  private readonly data: Float32Array;

  constructor(readonly count: number) {
    const rows = Math.max(1, Math.ceil(count / ITEMS_PER_ROW));
    this.data = new Float32Array(ITEMS_PER_ROW * TEXELS_PER_ITEM * rows * 4);
    this.texture = new THREE.DataTexture(this.data, ITEMS_PER_ROW * TEXELS_PER_ITEM, rows, THREE.RGBAFormat, THREE.FloatType);
    this.texture.minFilter = this.texture.magFilter = THREE.NearestFilter;
    this.texture.generateMipmaps = false;
    this.texture.needsUpdate = true; // all zeros: every item hidden until it is styled
  }

  private offset(id: number): number {
    return id * TEXELS_PER_ITEM * 4;
  }

  /** Set one item's state (the upload happens with `commit`). */
  set(id: number, state: ItemState): void {
    if (id < 0 || id >= this.count) return;
    const d = this.data;
    const o = this.offset(id);
    const { style } = state;
    d[o] = style.flat?.[0] ?? 0;
    d[o + 1] = style.flat?.[1] ?? 0;
    d[o + 2] = style.flat?.[2] ?? 0;
    d[o + 3] = style.flat ? 1 : 0;
    d[o + 4] = style.dim;
    d[o + 5] = style.sizeBoost;
    d[o + 6] = state.lift;
    d[o + 7] = Number.isFinite(state.clipZ) ? state.clipZ : NO_CLIP;
    d[o + 8] = state.pickId;
    d[o + 9] = state.visible ? 1 : 0;
  }

  /** Hide one item (not in the view, or drawn from its own cloud). */
  hide(id: number): void {
    if (id >= 0 && id < this.count) this.data[this.offset(id) + 9] = 0;
  }

  pickIdOf(id: number): number {
    return id >= 0 && id < this.count && this.data[this.offset(id) + 9] ? this.data[this.offset(id) + 8] : 0;
  }

  /** Whether the item's points are drawn now. */
  drawnOf(id: number): boolean {
    return id >= 0 && id < this.count && this.data[this.offset(id) + 9] > 0;
  }

  /** The height above which the item's points are not drawn (scene metres). */
  clipOf(id: number): number {
    return id >= 0 && id < this.count ? this.data[this.offset(id) + 7] : NO_CLIP;
  }

  liftOf(id: number): number {
    return id >= 0 && id < this.count ? this.data[this.offset(id) + 6] : 0;
  }

  commit(): void {
    this.texture.needsUpdate = true;
  }

  dispose(): void {
    this.texture.dispose();
  }
}

/** GLSL: the three texels of an item. */
export const ITEM_STATE_GLSL = /* glsl */ `
  uniform highp sampler2D uItems;
  vec4 itemTexel(uint id, int k) {
    int i = int(id) * ${TEXELS_PER_ITEM} + k;
    return texelFetch(uItems, ivec2(i % ${ITEMS_PER_ROW * TEXELS_PER_ITEM}, i / ${ITEMS_PER_ROW * TEXELS_PER_ITEM}), 0);
  }
`;
