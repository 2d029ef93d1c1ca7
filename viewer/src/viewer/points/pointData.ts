// The binary point data of api_server/point_data.py ("SAPC" v1): a 40-byte header, then uint16 xyz
// quantised within the header's bounds, then uint8 rgb. Both arrays are views on the fetched buffer,
// handed to WebGL as normalized attributes; dequantising is the item's model matrix (min + q·extent).

import type { Vec3 } from "../data/api";

export interface PointData {
  count: number;
  min: Vec3;
  max: Vec3;
  positions: Uint16Array;
  colors: Uint8Array;
}

const HEADER_BYTES = 40;
const MAGIC = 0x43504153; // "SAPC" read as a little-endian uint32

/** Decode one response; throws Error with a short reason when it is not SAPC v1. */
export function parsePointData(buffer: ArrayBuffer): PointData {
  if (buffer.byteLength < HEADER_BYTES) throw new Error(`too short for a point data header (${buffer.byteLength} bytes)`);
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== 1) throw new Error("not scene-agent point data (version 1)");
  const count = view.getUint32(8, true);
  const expected = HEADER_BYTES + 9 * count;
  if (buffer.byteLength !== expected) throw new Error(`expected ${expected} bytes for ${count} points, got ${buffer.byteLength}`);
  const f = (offset: number) => view.getFloat32(offset, true);
  // Typed arrays use the platform's byte order; every browser platform is little-endian, as the data is.
  return {
    count,
    min: [f(16), f(20), f(24)],
    max: [f(28), f(32), f(36)],
    positions: new Uint16Array(buffer, HEADER_BYTES, 3 * count),
    colors: new Uint8Array(buffer, HEADER_BYTES + 6 * count, 3 * count),
  };
}
