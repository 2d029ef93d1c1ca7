// Shaders for one point cloud. Positions arrive as normalized uint16 in [0,1]³ and colours as
// normalized uint8; the Points object's model matrix maps the unit cube onto the item's bounds, so
// nothing is expanded to float32 on the CPU. Points are sized in world units (from the item's point
// density), clamped to a pixel range whose top shrinks for points nearer than what the camera looks at,
// then scaled by the user's point size. Colours are the scan's own unless a colour mode paints items
// flat (by room, by object); highlights never change them (looks.ts). A second material draws the same
// points in one flat colour (the item's pick id) for GPU picking.

import * as THREE from "three";
import { NO_CUTAWAY } from "./cutaway";

/**
 * Uniforms shared by every material: pixels per world unit at distance 1, the pixel clamp, the user's
 * point size, the distance to the orbit target, and the section height above which nothing is drawn.
 */
export interface SharedUniforms {
  uScale: { value: number };
  uMinPx: { value: number };
  uMaxPx: { value: number };
  uSizeScale: { value: number };
  uFocusDist: { value: number };
  uSectionZ: { value: number };
  /** The clip box (stage/clipBox.ts): nothing outside it is drawn or picked; ±1e9 when there is none. */
  uClipMin: { value: THREE.Vector3 };
  uClipMax: { value: THREE.Vector3 };
}

export function sharedUniforms(): SharedUniforms {
  return { uScale: { value: 500 }, uMinPx: { value: 1.5 }, uMaxPx: { value: 12 }, uSizeScale: { value: 1 },
           uFocusDist: { value: 1 }, uSectionZ: { value: 1e9 },
           uClipMin: { value: new THREE.Vector3(-1e9, -1e9, -1e9) }, uClipMax: { value: new THREE.Vector3(1e9, 1e9, 1e9) } };
}

// Points nearer than the orbit target are capped at this share of the pixel cap at the least (at a
// quarter of the target's distance and nearer): near walls and floor become a screen of small dots that
// the object looked at shows through, instead of discs that cover it.
const NEAR_CAP_SHARE = 0.25;

/** GLSL shared with the tiles' shaders (tileMaterial.ts): the size of a point in pixels, and its shade. */
export const POINT_GLSL = /* glsl */ `
  uniform float uScale;
  uniform float uMinPx;
  uniform float uMaxPx;
  uniform float uSizeScale;
  uniform float uFocusDist;
  uniform float uSectionZ;
  uniform vec3 uClipMin;
  uniform vec3 uClipMax;

  // whether a point (where it is in the scene, before any lift) lies outside the clip box
  bool outsideClipBox(vec3 p) {
    return any(lessThan(p, uClipMin)) || any(greaterThan(p, uClipMax));
  }

  // a point of world size worldSize at distance d, in pixels (before any boost)
  float pointPx(float worldSize, float d) {
    float cap = max(uMaxPx * clamp(d / uFocusDist, ${NEAR_CAP_SHARE.toFixed(2)}, 1.0), uMinPx);
    return clamp(worldSize * uScale / d, uMinPx, cap) * uSizeScale;
  }

  // a colour mode paints flat, shaded by the scan's brightness so that the shape stays readable; dimmed is
  // mostly grey and darker, so that highlighted items stand out and the rest stays readable
  vec3 shade(vec3 c, vec3 flatColor, float flatAmount, float dim) {
    c = mix(c, flatColor * (0.45 + 0.75 * dot(c, vec3(0.299, 0.587, 0.114))), flatAmount);
    float lum = dot(c, vec3(0.299, 0.587, 0.114));
    return mix(c, vec3(lum), 0.75 * dim) * (1.0 - 0.55 * dim);
  }
`;

const VERTEX_COMMON = /* glsl */ `
  ${POINT_GLSL}
  uniform float uWorldSize;
  uniform float uSizeBoost;
  uniform float uClipZ;
  uniform float uLift;
  uniform vec4 uCutaway;

  // false when the point lies above the clip height (a room's ceiling, cut so that one sees inside), above
  // the section the user set or outside their clip box (all in the scene, below any lift: exploded floors), or in
  // the cutaway of a room looked inside (its near walls, stage/cutaway.ts)
  bool placePoint() {
    vec4 world = modelMatrix * vec4(position, 1.0);
    if (world.z - uLift > min(uClipZ, uSectionZ) || outsideClipBox(vec3(world.xy, world.z - uLift))
        || (dot(world.xy, uCutaway.xy) < uCutaway.z && world.z > uCutaway.w)) {
      gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: dropped before rasterising
      gl_PointSize = 0.0;
      return false;
    }
    vec4 mv = viewMatrix * world;
    gl_Position = projectionMatrix * mv;
    gl_PointSize = pointPx(uWorldSize, max(-mv.z, 1e-3)) * uSizeBoost;
    return true;
  }
`;

const DISPLAY_VERTEX = /* glsl */ `
  ${VERTEX_COMMON}
  attribute vec3 rgb;
  varying vec3 vColor;
  void main() {
    vColor = rgb;
    placePoint();
  }
`;

const DISPLAY_FRAGMENT = /* glsl */ `
  ${POINT_GLSL}
  uniform vec3 uFlat;
  uniform float uFlatAmount;
  uniform float uDim;
  varying vec3 vColor;
  void main() {
    vec2 d = gl_PointCoord - 0.5;
    if (dot(d, d) > 0.25) discard;
    gl_FragColor = vec4(shade(vColor, uFlat, uFlatAmount, uDim), 1.0);
  }
`;

const PICK_VERTEX = /* glsl */ `
  ${VERTEX_COMMON}
  uniform float uPickMinPx;
  void main() {
    if (placePoint()) gl_PointSize = max(gl_PointSize, uPickMinPx);
  }
`;

const PICK_FRAGMENT = /* glsl */ `
  uniform vec3 uPickColor;
  void main() {
    gl_FragColor = vec4(uPickColor, 1.0);
  }
`;

/**
 * How an item is drawn now: dimmed (0…1), painted flat in a colour mode's colour (sRGB 0…1, as written
 * to the canvas and shown in the legend; null: its own colours), enlarged.
 */
export interface CloudStyle {
  dim: number;
  flat: readonly [number, number, number] | null;
  sizeBoost: number;
}

function itemUniforms(shared: SharedUniforms, worldSize: number, clipZ: number) {
  return {
    ...shared,
    uWorldSize: { value: worldSize },
    uSizeBoost: { value: 1 },
    uClipZ: { value: clipZ },
    uLift: { value: 0 },
    uCutaway: { value: NO_CUTAWAY.clone() },
  };
}

export function displayMaterial(shared: SharedUniforms, worldSize: number, clipZ: number): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: {
      ...itemUniforms(shared, worldSize, clipZ),
      uFlat: { value: new THREE.Vector3() }, uFlatAmount: { value: 0 }, uDim: { value: 0 },
    },
    vertexShader: DISPLAY_VERTEX,
    fragmentShader: DISPLAY_FRAGMENT,
  });
}

export function pickMaterial(display: THREE.ShaderMaterial, pickId: number): THREE.ShaderMaterial {
  // Shares the display material's size and clip uniforms (the same objects), so both always agree.
  const u = display.uniforms;
  return new THREE.ShaderMaterial({
    uniforms: {
      uScale: u.uScale, uMinPx: u.uMinPx, uMaxPx: u.uMaxPx, uSizeScale: u.uSizeScale, uFocusDist: u.uFocusDist,
      uSectionZ: u.uSectionZ, uClipMin: u.uClipMin, uClipMax: u.uClipMax,
      uWorldSize: u.uWorldSize, uSizeBoost: u.uSizeBoost, uClipZ: u.uClipZ, uLift: u.uLift, uCutaway: u.uCutaway,
      uPickMinPx: { value: 3 }, uPickColor: { value: idColor(pickId) },
    },
    vertexShader: PICK_VERTEX,
    fragmentShader: PICK_FRAGMENT,
  });
}

export function applyStyle(material: THREE.ShaderMaterial, style: CloudStyle): void {
  const u = material.uniforms;
  u.uDim.value = style.dim;
  if (style.flat) (u.uFlat.value as THREE.Vector3).set(...style.flat);
  u.uFlatAmount.value = style.flat ? 1 : 0;
  u.uSizeBoost.value = style.sizeBoost;
}

/** Pick id (1…2²⁴−1; 0 = nothing) as an exact 8-bit RGB colour. */
export function idColor(id: number): THREE.Vector3 {
  return new THREE.Vector3(((id >> 16) & 255) / 255, ((id >> 8) & 255) / 255, (id & 255) / 255);
}

export function setPickId(material: THREE.ShaderMaterial, id: number): void {
  (material.uniforms.uPickColor.value as THREE.Vector3).copy(idColor(id));
}

/**
 * World size of a point: a multiple of the spacing of `count` points spread over the surface the item's box suggests
 * (a room: floor, ceiling and walls; an object: part of its box surface). Scanned points lie at random, not on a
 * grid: discs of diameter k × spacing leave about exp(−πk²/4) of a surface bare, a fifth at k = 1.4, 6 % at k = 1.9.
 * A room's floor and walls are broad and flat: 1.9, so that a floor reads as one surface rather than speckled. An
 * object's surfaces are small and close together: 1.4, or near ones run together into blobs (the point size control
 * closes what is left).
 */
export const SPACING_TO_SIZE = 1.4;
const ROOM_SPACING_TO_SIZE = 1.9;

export function worldPointSize(kind: "room" | "object", size: [number, number, number], count: number): number {
  const [x, y, z] = size.map((s) => Math.max(s, 0.01));
  const area = kind === "room" ? 2 * x * y + 2 * z * (x + y) : 0.6 * 2 * (x * y + y * z + x * z);
  return (kind === "room" ? ROOM_SPACING_TO_SIZE : SPACING_TO_SIZE) * Math.sqrt(area / Math.max(count, 1));
}
