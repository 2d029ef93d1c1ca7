// Measurements drawn in the 3D view: a wide line between the points (a vertical one for a height), a polygon with
// a translucent fill for an area, each over a dark halo and over everything else (never hidden by the points they
// measure); and, in HTML over the canvas, a dot at every clicked point and the value ("2.34 m") as a label that
// follows the camera, as the item labels do (panel/labels.ts).

import * as THREE from "three";
import { LineMaterial } from "three/examples/jsm/lines/LineMaterial.js";
import { LineSegments2 } from "three/examples/jsm/lines/LineSegments2.js";
import { LineSegmentsGeometry } from "three/examples/jsm/lines/LineSegmentsGeometry.js";
import type { Vec3 } from "../data/api";
import type { Stage } from "../stage/stage";
import type { MeasureKind } from "./geometry";

/** One thing drawn: its corners where they are drawn (scene coordinates, lifted with their floor). */
export interface Shape {
  kind: MeasureKind;
  points: Vec3[];
  /** A polygon (area): the last corner joins the first, and the inside is filled. */
  closed: boolean;
  /** The value, at `anchor`; null while the measurement is in progress. */
  label: string | null;
  anchor: Vec3 | null;
  /** Being measured now (drawn lighter). */
  active: boolean;
  /** Dots at these points (the clicked ones; not a height's foot). */
  dots: Vec3[];
}

const COLOUR = { done: "#ffd84d", active: "#8fd3ff", halo: "#0b0c0f" };
const LINE_PX = 2.5;
// Where an HTML mark sits against its point: a dot centred on it, a label centred just above it.
const DOT_SHIFT = "translate(-50%, -50%)";
const LABEL_SHIFT = "translate(-50%, calc(-100% - 7px))";
const HALO_PX = 2;

type Project = (p: THREE.Vector3) => { x: number; y: number } | null;

export class MeasureDrawing {
  /** The HTML layer over the canvas (dots and labels); the app puts it in the stage's box. */
  readonly layer = document.createElement("div");
  private readonly group = new THREE.Group();
  private readonly materials = new Map<string, LineMaterial>();
  private readonly fill = new THREE.MeshBasicMaterial({ color: COLOUR.done, transparent: true, opacity: 0.2, side: THREE.DoubleSide,
                                                        depthTest: false, depthWrite: false });
  private anchors: { el: HTMLElement; at: THREE.Vector3; shift: string }[] = [];
  private stage: Stage | null = null;

  constructor() {
    this.layer.className = "svm-layer";
    this.layer.setAttribute("aria-hidden", "true"); // the panel lists the same in words
    this.group.name = "measurements";
  }

  attach(stage: Stage): void {
    if (this.stage === stage) return;
    this.stage = stage;
    stage.addOverlay(this.group);
  }

  private line(colour: string, width: number, halo: boolean): LineMaterial {
    const key = `${colour}/${width}`;
    let m = this.materials.get(key);
    if (!m) {
      m = new LineMaterial({ color: new THREE.Color(colour), linewidth: width, worldUnits: false, transparent: true,
                             opacity: halo ? 0.75 : 1, depthTest: false, depthWrite: false });
      this.materials.set(key, m);
    }
    return m;
  }

  /** Draw exactly these shapes. */
  show(shapes: Shape[]): void {
    for (const child of [...this.group.children]) {
      if (child instanceof LineSegments2 || child instanceof THREE.Mesh) child.geometry.dispose();
      this.group.remove(child);
    }
    this.layer.replaceChildren();
    this.anchors = [];
    shapes.forEach((shape, index) => {
      const colour = shape.active ? COLOUR.active : COLOUR.done;
      const corners = shape.points;
      const segments: number[] = [];
      const ends = shape.closed ? corners.length : corners.length - 1;
      for (let k = 0; k < ends; k++) segments.push(...corners[k], ...corners[(k + 1) % corners.length]);
      if (segments.length) {
        const geometry = new LineSegmentsGeometry().setPositions(segments);
        const halo = new LineSegments2(geometry, this.line(COLOUR.halo, LINE_PX + 2 * HALO_PX, true));
        const line = new LineSegments2(geometry, this.line(colour, LINE_PX, false));
        halo.renderOrder = 200 + 3 * index;
        line.renderOrder = 202 + 3 * index;
        this.group.add(halo, line);
      }
      if (shape.closed && corners.length >= 3) this.group.add(this.polygon(corners, 201 + 3 * index));
      for (const p of shape.dots) this.anchor("svm-dot", null, p, DOT_SHIFT);
      if (shape.label && shape.anchor) this.anchor(`svm-label svm-label-${shape.kind}`, shape.label, shape.anchor, LABEL_SHIFT);
    });
    this.group.updateMatrixWorld(true);
    this.stage?.requestRender();
  }

  /** A flat polygon's inside: triangulated in its own plane (the horizontal one, as the tool draws it). */
  private polygon(corners: Vec3[], order: number): THREE.Mesh {
    const normal = new THREE.Vector3();
    for (let k = 0; k < corners.length; k++) { // Newell's method: the polygon's normal, whichever way it is drawn
      const [x0, y0, z0] = corners[k];
      const [x1, y1, z1] = corners[(k + 1) % corners.length];
      normal.x += (y0 - y1) * (z0 + z1);
      normal.y += (z0 - z1) * (x0 + x1);
      normal.z += (x0 - x1) * (y0 + y1);
    }
    const axis = [Math.abs(normal.x), Math.abs(normal.y), Math.abs(normal.z)].indexOf(Math.max(Math.abs(normal.x), Math.abs(normal.y), Math.abs(normal.z)));
    const [u, v] = [0, 1, 2].filter((k) => k !== axis);
    const flat = corners.map((p) => new THREE.Vector2(p[u], p[v]));
    const triangles = THREE.ShapeUtils.triangulateShape(flat, []);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.Float32BufferAttribute(corners.flat(), 3));
    geometry.setIndex(triangles.flat());
    const mesh = new THREE.Mesh(geometry, this.fill);
    mesh.renderOrder = order;
    mesh.frustumCulled = false;
    return mesh;
  }

  private anchor(className: string, text: string | null, at: Vec3, shift: string): void {
    const el = document.createElement("div");
    el.className = className;
    if (text !== null) el.textContent = text;
    el.style.display = "none"; // until placed
    this.layer.append(el);
    this.anchors.push({ el, at: new THREE.Vector3(...at), shift });
  }

  /** Follow the camera (after every frame): dots on their points, labels just above theirs. */
  place(project: Project): void {
    for (const { el, at, shift } of this.anchors) {
      const p = project(at);
      if (!p) {
        el.style.display = "none";
        continue;
      }
      el.style.display = "";
      el.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px) ${shift}`;
    }
  }

  dispose(): void {
    this.show([]);
    for (const m of this.materials.values()) m.dispose();
    this.fill.dispose();
    this.group.removeFromParent();
  }
}
