// Loading a target: its model (scene manifest or view manifest), then each item's points, several
// requests at a time, what matters first (focus, candidates) first. Decoded points are kept for the
// next view (switching from the whole scene to a selection in it fetches nothing again).

import type { ViewTarget } from "../../contracts";
import { ApiError, getBytes, getJson, sameOriginPath, type SceneList, type SceneManifest, type ViewManifest } from "./api";
import { sceneModel, viewModel, type Item, type ViewModel } from "./model";
import { chunkPoints, type ChunkedPoints } from "../points/chunks";
import { parsePointData } from "../points/pointData";

const CONCURRENCY = 6;
const CACHE_POINTS = 4_000_000;
const cache = new Map<string, ChunkedPoints>();

export class NoScene extends Error {}

/** Loading one item's points failed: which item, and why. */
export class PointsError extends Error {
  constructor(readonly item: Item, readonly reason: unknown) {
    super(`points of ${item.code}: ${String(reason)}`);
  }
}

/**
 * The model of a target: the whole scene when it names no manifest. `listed` hears the whole scene's
 * point count as soon as the scene list says it (before its manifest is read).
 */
export async function loadModel(target: ViewTarget, signal: AbortSignal, listed?: (points: number) => void): Promise<ViewModel> {
  if (!target.manifest) {
    const list = await getJson<SceneList>("/api/scenes", signal);
    const first = list.scenes?.[0];
    if (!first) throw new NoScene();
    listed?.(first.points);
    const url = sameOriginPath(first.url);
    return sceneModel(await getJson<SceneManifest>(url, signal), url);
  }
  const view = await getJson<ViewManifest>(sameOriginPath(target.manifest), signal);
  if (!Array.isArray(view.items)) throw new ApiError("data", target.manifest, 200, "bad_view", "not a view manifest");
  return viewModel(view, target.selectionMode, target.sessionId, target.prompt);
}

/** Items in loading order: those framed first, then the rest, each group in manifest order. */
export function loadingOrder(items: Item[], first: ReadonlySet<string>): Item[] {
  const matters = (i: Item) => first.has(i.code) || first.has(i.room);
  return [...items.filter(matters), ...items.filter((i) => !matters(i))];
}

async function fetchPoints(item: Item, signal: AbortSignal): Promise<ChunkedPoints> {
  const url = sameOriginPath(item.pointsUrl);
  const cached = cache.get(url);
  if (cached) return cached;
  const buffer = await getBytes(url, signal);
  let data: ChunkedPoints;
  try {
    data = chunkPoints(parsePointData(buffer));
  } catch (exc) {
    throw new ApiError("data", url, 200, "bad_points", exc instanceof Error ? exc.message : String(exc));
  }
  cache.set(url, data);
  return data;
}

/** Forget decoded points no longer shown once the cache is over budget. */
export function trimCache(keep: Item[]): void {
  let total = 0;
  for (const data of cache.values()) total += data.count;
  if (total <= CACHE_POINTS) return;
  const wanted = new Set(keep.map((i) => i.pointsUrl));
  for (const url of [...cache.keys()]) if (!wanted.has(url)) cache.delete(url);
}

/** Fetch every item's points, handing each to `onItem` as it arrives; rejects on the first failure. */
export async function loadPoints(items: Item[], signal: AbortSignal, onItem: (item: Item, data: ChunkedPoints) => void): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) {
      const item = items[next++];
      let data: ChunkedPoints;
      try {
        data = await fetchPoints(item, signal);
      } catch (exc) {
        throw new PointsError(item, exc);
      }
      if (!signal.aborted) onItem(item, data);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}
