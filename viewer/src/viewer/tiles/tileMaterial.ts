// Shaders for the tiles: the same look as an item's own cloud (pointMaterial.ts), but every point finds
// its item's state (colour mode, dimming, size, lift, clip height, pick id, shown or not) in the item
// state texture by the id it carries (itemStates.ts). A tile's Points has its node's cube as its model
// matrix (positions are uint16 within it); its point size is the node's point spacing, smaller when
// finer nodes are drawn among its points. The pick material draws each point in its item's pick colour.

import * as THREE from "three";
import { ITEM_STATE_GLSL } from "./itemStates";
import { POINT_GLSL, type SharedUniforms } from "../points/pointMaterial";

const PLACE = /* glsl */ `
  ${POINT_GLSL}
  ${ITEM_STATE_GLSL}
  uniform float uWorldSize;
  attribute uint itemId;

  // false when the item is hidden, or the point lies above its item's clip height or the section, or outside the
  // clip box
  bool placeTilePoint(vec4 look, out float px) {
    vec4 state = itemTexel(itemId, 2);
    px = 0.0;
    if (state.y < 0.5) return false;
    vec4 world = modelMatrix * vec4(position, 1.0);
    if (world.z > min(look.w, uSectionZ) || outsideClipBox(world.xyz)) return false;
    world.z += look.z;  // lifted with its floor (exploded floors)
    vec4 mv = viewMatrix * world;
    gl_Position = projectionMatrix * mv;
    px = pointPx(uWorldSize, max(-mv.z, 1e-3)) * look.y;
    gl_PointSize = px;
    return true;
  }

  void dropPoint() {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: dropped before rasterising
    gl_PointSize = 0.0;
  }
`;

const DISPLAY_VERTEX = /* glsl */ `
  ${PLACE}
  attribute vec3 rgb;
  varying vec3 vColor;
  void main() {
    vec4 look = itemTexel(itemId, 1);
    float px;
    if (!placeTilePoint(look, px)) { dropPoint(); return; }
    vec4 flatColor = itemTexel(itemId, 0);
    vColor = shade(rgb, flatColor.rgb, flatColor.a, look.x);
  }
`;

const DISPLAY_FRAGMENT = /* glsl */ `
  varying vec3 vColor;
  void main() {
    vec2 d = gl_PointCoord - 0.5;
    if (dot(d, d) > 0.25) discard;
    gl_FragColor = vec4(vColor, 1.0);
  }
`;

const PICK_VERTEX = /* glsl */ `
  ${PLACE}
  uniform float uPickMinPx;
  varying vec3 vPick;
  void main() {
    float id = itemTexel(itemId, 2).x;
    float px;
    if (id < 0.5 || !placeTilePoint(itemTexel(itemId, 1), px)) { dropPoint(); return; }
    gl_PointSize = max(px, uPickMinPx);
    // the pick id as an exact 8-bit RGB colour (pointMaterial.ts idColor)
    vPick = vec3(floor(id / 65536.0), mod(floor(id / 256.0), 256.0), mod(id, 256.0)) / 255.0;
  }
`;

const PICK_FRAGMENT = /* glsl */ `
  varying vec3 vPick;
  void main() {
    gl_FragColor = vec4(vPick, 1.0);
  }
`;

/** The display and pick materials of one tile: shared uniforms, the item state texture, its own point size. */
export function tileMaterials(shared: SharedUniforms, items: THREE.Texture, worldSize: number): { display: THREE.ShaderMaterial; pick: THREE.ShaderMaterial } {
  // one uWorldSize object in both: the layer sets it on the display material and the pick pass follows
  const own = { uWorldSize: { value: worldSize }, uItems: { value: items } };
  const display = new THREE.ShaderMaterial({ uniforms: { ...shared, ...own }, vertexShader: DISPLAY_VERTEX, fragmentShader: DISPLAY_FRAGMENT });
  const pick = new THREE.ShaderMaterial({ uniforms: { ...shared, ...own, uPickMinPx: { value: 3 } }, vertexShader: PICK_VERTEX, fragmentShader: PICK_FRAGMENT });
  return { display, pick };
}
