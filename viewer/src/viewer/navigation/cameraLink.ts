// The camera in the page's address: `camera=px,py,pz,tx,ty,tz` (where it is and what it looks at, in the scene's
// metres), kept current while the user moves (history.replaceState, at most every few hundred milliseconds and never
// a history entry of its own), so that a reload, a bookmark or a link someone was sent opens the same view. The
// page's first view takes the camera from its address once it is framed; a new place (history.ts) starts without one.
// (The address is the page's own, or one kept aside on a page served from elsewhere: address.ts.)
// Only a camera the user moved is written: a view framed by itself comes back framed the same way, and its address
// stays as it was opened (an answer's link, a pick's).

import * as THREE from "three";
import type { SceneCamera } from "../../contracts";
import type { Stage } from "../stage/stage";
import { addressHref, addressState, setAddress } from "./address";

const PARAM = "camera";
const WRITE_AFTER_MS = 400;

/** The camera a page address names, or null (none, or not six numbers). */
export function cameraOfUrl(href: string): { position: THREE.Vector3; target: THREE.Vector3 } | null {
  const raw = new URL(href, window.location.href).searchParams.get(PARAM);
  const numbers = raw?.split(",").map(Number) ?? [];
  if (numbers.length !== 6 || !numbers.every(Number.isFinite)) return null;
  const position = new THREE.Vector3(numbers[0], numbers[1], numbers[2]);
  const target = new THREE.Vector3(numbers[3], numbers[4], numbers[5]);
  return position.distanceTo(target) > 1e-3 ? { position, target } : null;
}

/** The parameter's value for a camera: centimetres are enough. */
export function cameraParam(camera: SceneCamera): string {
  return [...camera.position, ...camera.target].map((v) => (Math.round(v * 100) / 100).toString()).join(",");
}

export class CameraLink {
  /** The camera the page was opened with, until it has been shown. */
  private wanted = cameraOfUrl(addressHref());
  private timer = 0;
  /** The user moved the camera in this place (or the address named one): the address follows it. */
  private touched = this.wanted !== null;

  constructor(private readonly camera: () => SceneCamera | null) {}

  /** The user moved the camera (a drag, the wheel, a key). */
  touch(): void {
    this.touched = true;
  }

  /** A new place: framed by itself until the user moves. */
  untouch(): void {
    this.touched = this.wanted !== null;
  }

  /** Back or Forward: the entry's address names the camera it had (if the user had moved it there). */
  fromAddress(): void {
    this.wanted = cameraOfUrl(addressHref());
    this.touched = this.wanted !== null;
  }

  /** A place is framed: put the camera where the address says (the page's first view, an entry come back to). */
  restore(stage: Stage): void {
    const wanted = this.wanted;
    this.wanted = null;
    if (wanted) stage.placeCamera(wanted.position, wanted.target, true);
  }

  /** The camera moved (a frame was drawn): the address follows, a moment later. */
  moved(): void {
    if (this.touched && !this.timer) this.timer = window.setTimeout(() => this.write(), WRITE_AFTER_MS);
  }

  /** The address with the camera as it is now (what "Copy link" copies). */
  href(): string {
    this.write();
    return addressHref();
  }

  private write(): void {
    window.clearTimeout(this.timer);
    this.timer = 0;
    const camera = this.camera();
    if (!camera || this.wanted) return; // nothing shown yet, or the address's camera is still to come
    const url = new URL(addressHref());
    const value = cameraParam(camera);
    if (url.searchParams.get(PARAM) === value) return;
    url.searchParams.set(PARAM, value);
    // the same entry, its state (the place shown: history.ts) kept
    setAddress(url.pathname + url.search + url.hash, addressState(), "replace");
  }
}
