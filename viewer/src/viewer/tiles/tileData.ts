// The scene's level-of-detail tiles as the server serves them (api_server/tiles_api.py; the format is in
// docs/scene-format.md, "Tiles"): the index (an octree of nodes named by their path, r, r0, r07 …) and
// one binary tile per node ("SATL" v1: item ids, uint16 positions within the node's cube, uint8 colours).

import type { components } from "../../generated/api";
import { ApiError, getBytes, getJson, type Vec3 } from "../data/api";

export type TilesIndex = components["schemas"]["TilesIndex"];

/** One node of the octree as the viewer keeps it. */
export interface TileNode {
  name: string;
  level: number;
  points: number;
  /** Its cube in scene coordinates. */
  min: Vec3;
  side: number;
  children: TileNode[];
  parent: TileNode | null;
}

/** A decoded tile: views on the fetched buffer, handed to WebGL as they are. */
export interface TileData {
  count: number;
  items: Uint32Array;
  positions: Uint16Array;
  colors: Uint8Array;
}

const HEADER_BYTES = 16;
const MAGIC = 0x4c544153; // "SATL" read as a little-endian uint32

/** The tree of an index: its root, every node under it linked to its parent and children. */
export function tileTree(index: TilesIndex): TileNode {
  const byName = new Map<string, TileNode>();
  let root: TileNode | null = null;
  for (const node of index.nodes) {
    const parent = node.name.length > 1 ? byName.get(node.name.slice(0, -1)) : undefined;
    if (node.name.length > 1 && !parent) throw new Error(`tile ${node.name} comes before its parent`);
    const cube = parent ? childCube(parent, Number(node.name[node.name.length - 1])) : { min: index.cube.min as Vec3, side: index.cube.side };
    const made: TileNode = { name: node.name, level: node.name.length - 1, points: node.points, ...cube, children: [], parent: parent ?? null };
    byName.set(node.name, made);
    if (parent) parent.children.push(made);
    else root = made;
  }
  if (!root) throw new Error("the tiles' index has no root node");
  return root;
}

/** The octant `digit` (4·x + 2·y + z) of a node's cube. */
function childCube(node: Pick<TileNode, "min" | "side">, digit: number): { min: Vec3; side: number } {
  const half = node.side / 2;
  const [x, y, z] = node.min;
  return { min: [x + half * ((digit >> 2) & 1), y + half * ((digit >> 1) & 1), z + half * (digit & 1)], side: half };
}

/** Decode one tile; throws Error with a short reason when it is not SATL v1. */
export function parseTile(buffer: ArrayBuffer): TileData {
  if (buffer.byteLength < HEADER_BYTES) throw new Error(`too short for a tile header (${buffer.byteLength} bytes)`);
  const view = new DataView(buffer);
  if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== 1) throw new Error("not a scene-agent tile (version 1)");
  const count = view.getUint32(8, true);
  const expected = HEADER_BYTES + 13 * count;
  if (buffer.byteLength !== expected) throw new Error(`expected ${expected} bytes for ${count} points, got ${buffer.byteLength}`);
  return {
    count,
    items: new Uint32Array(buffer, HEADER_BYTES, count),
    positions: new Uint16Array(buffer, HEADER_BYTES + 4 * count, 3 * count),
    colors: new Uint8Array(buffer, HEADER_BYTES + 10 * count, 3 * count),
  };
}

// Decoded tiles are kept for the next view of the same scene (going back to the whole scene fetches
// little again), up to this many points.
const CACHE_POINTS = 6_000_000;
const cache = new Map<string, TileData>();
let cachedPoints = 0;

/** The index of the served scene's tiles (built by the server on first use, which may take a while). */
export function getTilesIndex(signal: AbortSignal): Promise<TilesIndex> {
  return getJson<TilesIndex>("/api/tiles/index.json", signal);
}

/** One node's tile, from the cache or the server; the cache is keyed by the build (its source digest). */
export function getTile(index: TilesIndex, node: TileNode, signal: AbortSignal): Promise<TileData> {
  const key = `${index.source_digest}/${node.name}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // re-inserted: most recently used last
    cache.set(key, hit);
    return Promise.resolve(hit);
  }
  let fetching = inFlight.get(key); // asked for already (the root, fetched with the index): the same answer
  if (!fetching) {
    fetching = fetchTile(node, signal).then(
      (data) => {
        inFlight.delete(key);
        remember(key, data);
        return data;
      },
      (exc: unknown) => {
        inFlight.delete(key);
        throw exc;
      },
    );
    inFlight.set(key, fetching);
  }
  return fetching;
}

const inFlight = new Map<string, Promise<TileData>>();

async function fetchTile(node: TileNode, signal: AbortSignal): Promise<TileData> {
  const url = `/api/tiles/${node.name}.bin`;
  const buffer = await getBytes(url, signal);
  let data: TileData;
  try {
    data = parseTile(buffer);
  } catch (exc) {
    throw new ApiError("data", url, 200, "bad_tile", exc instanceof Error ? exc.message : String(exc));
  }
  if (data.count !== node.points) throw new ApiError("data", url, 200, "bad_tile", `${data.count} points where the index says ${node.points}`);
  return data;
}

function remember(key: string, data: TileData): void {
  cache.set(key, data);
  cachedPoints += data.count;
  for (const [k, old] of cache) {
    if (cachedPoints <= CACHE_POINTS) break;
    cache.delete(k);
    cachedPoints -= old.count;
  }
}
