// The arithmetic of the measuring tools, on points in scene coordinates (metres): the straight distance, the
// height above a floor, and the area and perimeter of a polygon on the horizontal plane (the shoelace formula on
// the two axes across the scene's up axis). No DOM, no three.js: what the tools report is computed here alone.

import type { Vec3 } from "../data/api";

export type MeasureKind = "distance" | "height" | "area";

/** A finished measurement (`window.sceneViewer.lastMeasurement`): value in metres, or square metres for an area. */
export interface Measurement {
  kind: MeasureKind;
  value: number;
  unit: "m" | "m²";
  /** Scene coordinates: the two ends (distance), the point and its foot on the floor (height), the corners (area). */
  points: Vec3[];
}

/** What the panel says beside a measurement's value: an area's perimeter, the floor a height stands on. */
export interface MeasureDetails {
  perimeter?: number;
  floor?: FloorLevel;
}

/** The floor a height is measured from: its height along the up axis and where that comes from. */
export interface FloorLevel {
  level: number;
  /** "storey": the storey's elevation in the scene manifest; "room": the lowest point of the room's structure;
   *  "items": the lowest point of what the view shows of that room. */
  source: "storey" | "room" | "items";
  /** The storey's or the room's name or code, for the panel. */
  name: string;
}

const AXIS = { x: 0, y: 1, z: 2 } as const;

/** The index of the up axis, and of the two horizontal axes (in order). */
export function axesOf(upAxis: "x" | "y" | "z"): { up: number; across: [number, number] } {
  const up = AXIS[upAxis];
  const across = [0, 1, 2].filter((k) => k !== up) as [number, number];
  return { up, across };
}

export function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** The polygon's area on the horizontal plane (shoelace), whatever the heights of its corners. */
export function shoelaceArea(points: Vec3[], across: [number, number]): number {
  const [u, v] = across;
  let twice = 0;
  for (let k = 0; k < points.length; k++) {
    const p = points[k];
    const q = points[(k + 1) % points.length];
    twice += p[u] * q[v] - q[u] * p[v];
  }
  return Math.abs(twice) / 2;
}

/** The closed polygon's perimeter on the horizontal plane. */
export function perimeter(points: Vec3[], across: [number, number]): number {
  const [u, v] = across;
  let sum = 0;
  for (let k = 0; k < points.length; k++) {
    const p = points[k];
    const q = points[(k + 1) % points.length];
    sum += Math.hypot(p[u] - q[u], p[v] - q[v]);
  }
  return points.length > 1 ? sum : 0;
}

/** The point straight below `p` at the floor's level. */
export function footOf(p: Vec3, level: number, up: number): Vec3 {
  const foot = [...p] as Vec3;
  foot[up] = level;
  return foot;
}

/** "2.34" (metres to the centimetre; to the millimetre under 10 cm). */
export function metresText(value: number): string {
  return Math.abs(value) < 0.1 ? value.toFixed(3) : value.toFixed(2);
}

/** "5.94" (square metres to the hundredth). */
export function squareMetresText(value: number): string {
  return value.toFixed(2);
}
