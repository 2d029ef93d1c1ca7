// Spatial chunks of one item's points. The points are reordered (a counting sort on a coarse grid over
// the item's bounds; positions stay uint16, colours uint8) so that each grid cell is one contiguous
// range, drawn as its own Points with its own bounds. The renderer then skips every chunk outside the
// view — and a pick, whose frustum is 7×7 pixels wide, only draws the few chunks around the cursor.

import type { PointData } from "./pointData";

/** About this many points per chunk: small enough for tight culling, big enough to keep draw calls few. */
export const CHUNK_POINTS = 4096;
const MAX_CELLS_PER_AXIS = 48;

export interface Chunk {
  start: number;
  count: number;
  /** Bounds in the item's unit cube (quantised coordinates / 65535). */
  min: [number, number, number];
  max: [number, number, number];
}

export interface ChunkedPoints extends PointData {
  chunks: Chunk[];
}

/**
 * Cell edge for `count` points spread over the surfaces of a box of `size` (points of a scan lie on
 * surfaces, so the occupied cells grow with area, not volume).
 */
function cellsPerAxis(size: number[], count: number): number[] {
  const [x, y, z] = size.map((s) => Math.max(s, 1e-3));
  const area = 2 * (x * y + y * z + x * z);
  const edge = Math.sqrt((area * CHUNK_POINTS) / Math.max(count, 1));
  return size.map((s) => Math.min(MAX_CELLS_PER_AXIS, Math.max(1, Math.ceil(s / edge))));
}

export function chunkPoints(data: PointData): ChunkedPoints {
  const { count, positions, colors } = data;
  const whole: Chunk = { start: 0, count, min: [0, 0, 0], max: [1, 1, 1] };
  if (count <= CHUNK_POINTS) return { ...data, chunks: [whole] };
  const size = data.max.map((hi, k) => hi - data.min[k]);
  const [nx, ny, nz] = cellsPerAxis(size, count);
  const cells = nx * ny * nz;
  if (cells === 1) return { ...data, chunks: [whole] };
  const key = new Uint32Array(count);
  const fill = new Uint32Array(cells + 1);
  for (let i = 0; i < count; i++) {
    const ix = Math.min(nx - 1, (positions[3 * i] * nx) >>> 16);
    const iy = Math.min(ny - 1, (positions[3 * i + 1] * ny) >>> 16);
    const iz = Math.min(nz - 1, (positions[3 * i + 2] * nz) >>> 16);
    const k = ix + nx * (iy + ny * iz);
    key[i] = k;
    fill[k + 1]++;
  }
  for (let k = 0; k < cells; k++) fill[k + 1] += fill[k];
  const starts = fill.slice(0, cells);
  const outPos = new Uint16Array(3 * count);
  const outRgb = new Uint8Array(3 * count);
  for (let i = 0; i < count; i++) {
    const j = fill[key[i]]++;
    outPos[3 * j] = positions[3 * i];
    outPos[3 * j + 1] = positions[3 * i + 1];
    outPos[3 * j + 2] = positions[3 * i + 2];
    outRgb[3 * j] = colors[3 * i];
    outRgb[3 * j + 1] = colors[3 * i + 1];
    outRgb[3 * j + 2] = colors[3 * i + 2];
  }
  // Neighbouring cells along x (same row) are merged while they stay under the chunk size.
  const chunks: Chunk[] = [];
  let open: Chunk | null = null;
  for (let k = 0; k < cells; k++) {
    const n = (k + 1 < cells ? starts[k + 1] : count) - starts[k];
    const ix = k % nx;
    if (!n) continue;
    const iy = Math.floor(k / nx) % ny;
    const iz = Math.floor(k / (nx * ny));
    const cellMin: [number, number, number] = [ix / nx, iy / ny, iz / nz];
    const cellMax: [number, number, number] = [(ix + 1) / nx, (iy + 1) / ny, (iz + 1) / nz];
    const sameRow = open && open.start + open.count === starts[k] && open.min[1] === cellMin[1] && open.min[2] === cellMin[2];
    if (open && sameRow && open.count + n <= CHUNK_POINTS) {
      open.count += n;
      open.max = [cellMax[0], open.max[1], open.max[2]];
    } else {
      open = { start: starts[k], count: n, min: cellMin, max: cellMax };
      chunks.push(open);
    }
  }
  return { ...data, positions: outPos, colors: outRgb, chunks };
}
