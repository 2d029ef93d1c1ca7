// Loading what a view draws, once its model is read: every item's points (a small view), or the scene's
// tiles under the point budget plus the candidates or focus item by item (a large one, tiledView.ts).
// Frames are drawn as points arrive: the first at once (its time is the view's first frame), then a few
// times a second, not for every arrival: on a software renderer one frame of a million points takes
// longer than fetching many items.

import { loadingOrder, loadPoints, trimCache } from "../data/loader";
import { t } from "../strings";
import type { Item, ViewModel } from "../data/model";
import type { Stage } from "../stage/stage";
import { lodFor, pointBudget, TiledView } from "../tiles/tiledView";
import type { ViewerStore } from "./store";

const number = (n: number) => n.toLocaleString("en-US");

const LOADING_FRAME_SPACING_MS = 400;

export interface ContentEvents {
  /** False once another view is being loaded: nothing more is done for this one. */
  current(): boolean;
  /** The tiles' index is asked for (the server makes the tiles on first use: this may take a while). */
  readingTiles(): void;
  /** The tiles are on the stage (before any point): styles go to them from now on. */
  tiled(view: TiledView): void;
  /** An item's own cloud is on the stage. */
  cloud(item: Item): void;
  /** Points fetched so far. */
  progress(points: number): void;
  /** The first frame with points in it was drawn. */
  firstFrame(): void;
}

/** Load the view's points into the stage; resolves when every point it needs now is drawable. */
export async function loadContent(stage: Stage, model: ViewModel, points: number, signal: AbortSignal,
                                  on: ContentEvents): Promise<TiledView | null> {
  let first = true;
  const arrived = () => {
    if (first) {
      first = false;
      stage.drawNow();
      on.firstFrame();
    } else stage.requestRender(LOADING_FRAME_SPACING_MS);
  };
  const lod = lodFor(points);
  if (lod === "tiles") on.readingTiles();
  const tiled = lod === "tiles" ? await TiledView.open(stage, model, pointBudget(), signal) : null;
  if (!on.current()) return tiled;
  let direct = 0;
  if (tiled) {
    on.tiled(tiled);
    tiled.layer.onChange = () => {
      if (!on.current()) return;
      on.progress(direct + tiled.layer.pointsLoaded);
      arrived();
    };
    stage.refreshTiles(); // the first tiles are asked for before any frame
  }
  const asked = new Set(model.selection?.candidates ?? model.focus);
  await Promise.all([
    loadPoints(loadingOrder(tiled ? tiled.direct : model.items, asked), signal, (item, data) => {
      if (!on.current()) return;
      on.cloud(stage.addCloud(item, data).item);
      direct += data.count;
      on.progress(direct + (tiled?.layer.pointsLoaded ?? 0));
      arrived();
    }),
    tiled?.layer.settled(signal),
  ]);
  if (on.current()) trimCache(model.items);
  return tiled;
}

/**
 * The status line: while loading, the points fetched of those to come (in a tiled view, of its budget) and
 * that share for the progress bar; then the points shown, or in a tiled view those drawn of the scene's.
 */
export function pointsStatus(store: Pick<ViewerStore, "state" | "pointsLoaded" | "pointsTotal">, drawn: number,
                             tiled: TiledView | null): [() => string, number | null] {
  const { pointsLoaded: loaded, pointsTotal: total } = store;
  if (store.state === "loading") {
    const coming = tiled ? Math.min(total, tiled.layer.budget) : total;
    return [() => t("loadingPoints", { loaded: number(loaded), total: number(total) }), coming ? Math.min(1, loaded / coming) : 0];
  }
  if (tiled) return [() => t("pointsDrawnOf", { points: number(drawn), total: number(total) }), null];
  return [() => t("pointsShown", { points: number(loaded) }), null];
}
