// GPU id picking. The pickable clouds are drawn in their pick colours into a tiny 7×7 render target
// that covers only the pixels around the cursor (camera.setViewOffset narrows the frustum, so the
// chunks whose boxes miss that window are not drawn at all); the nearest non-empty pixel to the centre
// wins. Sparse points between the cursor's pixel and their neighbours are still hit, and a
// pick costs one tiny draw and a 196-byte read, whatever the number of points.

import * as THREE from "three";

export const PICK_WINDOW = 7;

export class GpuPicker {
  private readonly target = new THREE.WebGLRenderTarget(PICK_WINDOW, PICK_WINDOW, {
    minFilter: THREE.NearestFilter,
    magFilter: THREE.NearestFilter,
    type: THREE.UnsignedByteType,
    format: THREE.RGBAFormat,
    depthBuffer: true,
  });
  private readonly pixels = new Uint8Array(PICK_WINDOW * PICK_WINDOW * 4);
  private readonly clear = new THREE.Color(0, 0, 0);
  private readonly frustum = new THREE.Frustum();
  private readonly matrix = new THREE.Matrix4();

  constructor(private readonly renderer: THREE.WebGLRenderer) {}

  /**
   * The pick id drawn nearest to canvas pixel (x, y) (CSS pixels from the canvas' top left); 0 for none.
   * `cull` is called with the window's frustum before drawing, to hide what cannot be under the cursor.
   */
  pick(scene: THREE.Scene, camera: THREE.PerspectiveCamera, x: number, y: number, cull: (frustum: THREE.Frustum) => void): number {
    const renderer = this.renderer;
    const ratio = renderer.getPixelRatio();
    const size = renderer.getSize(new THREE.Vector2());
    const fullW = Math.round(size.x * ratio);
    const fullH = Math.round(size.y * ratio);
    const half = (PICK_WINDOW - 1) / 2;
    const px = Math.round(x * ratio);
    const py = Math.round(y * ratio);
    // The camera may already have a view offset (stage.ts moves its principal point): the window is cut
    // from the frame that offset describes, in device pixels.
    const view = camera.view?.enabled ? { ...camera.view } : null;
    const ox = view ? (view.offsetX * fullW) / view.fullWidth : 0;
    const oy = view ? (view.offsetY * fullH) / view.fullHeight : 0;
    camera.setViewOffset(fullW, fullH, ox + px - half, oy + py - half, PICK_WINDOW, PICK_WINDOW);
    const previousTarget = renderer.getRenderTarget();
    const previousClear = renderer.getClearColor(new THREE.Color());
    const previousAlpha = renderer.getClearAlpha();
    try {
      camera.updateMatrixWorld();
      this.frustum.setFromProjectionMatrix(this.matrix.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
      cull(this.frustum);
      renderer.setRenderTarget(this.target);
      renderer.setClearColor(this.clear, 0);
      renderer.clear();
      renderer.render(scene, camera);
      renderer.readRenderTargetPixels(this.target, 0, 0, PICK_WINDOW, PICK_WINDOW, this.pixels);
    } finally {
      if (view) camera.setViewOffset(view.fullWidth, view.fullHeight, view.offsetX, view.offsetY, view.width, view.height);
      else camera.clearViewOffset();
      renderer.setRenderTarget(previousTarget);
      renderer.setClearColor(previousClear, previousAlpha);
    }
    return nearestId(this.pixels, PICK_WINDOW);
  }

  dispose(): void {
    this.target.dispose();
  }
}

/** The id of the non-empty pixel nearest the window's centre (rows are bottom-up; distance is symmetric). */
export function nearestId(pixels: Uint8Array, size: number): number {
  const c = (size - 1) / 2;
  let best = 0;
  let bestD = Infinity;
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const o = 4 * (j * size + i);
      const id = (pixels[o] << 16) | (pixels[o + 1] << 8) | pixels[o + 2];
      if (!id) continue;
      const d = (i - c) ** 2 + (j - c) ** 2;
      if (d < bestD) {
        bestD = d;
        best = id;
      }
    }
  }
  return best;
}
