// A view too large to load item by item (more points than ITEMS_POINTS_MAX): its context comes from the
// scene's level-of-detail tiles under a point budget (tileLayer.ts), while what the view is about — the
// candidates of a selection, the focus of a view — is still loaded whole, item by item, when it is small
// enough (DIRECT_POINTS_MAX), so that it is drawn in full and over the rest, as in a small view. Every
// tile point names its item, so styles, hiding and picks stay per item (itemStates.ts).

import type { Bounds } from "../data/api";
import { itemsOf, type Item, type ViewModel } from "../data/model";
import type { CloudStyle } from "../points/pointMaterial";
import { clipHeightOf } from "../points/clouds";
import type { Stage } from "../stage/stage";
import { getTile, getTilesIndex, tileTree, type TileNode, type TilesIndex } from "./tileData";
import type { LiftSpan, TileLayer } from "./tileLayer";

/**
 * Views of more points than this are drawn from tiles: on a software renderer a frame of every point
 * costs about 0.6 µs a point, so beyond ~1.5 × the demo home (1.37 M) a view drawn whole turns sluggish.
 */
export const ITEMS_POINTS_MAX = 2_000_000;
/**
 * In a tiled view, the candidates or focus are loaded whole when they hold at most this many points (and
 * no more than the point budget: what is drawn stays within twice the budget).
 */
export const DIRECT_POINTS_MAX = 1_500_000;
/**
 * Most tile points drawn at once. Measured on the demo block with the software renderer the tests use
 * (headless Chromium, SwiftShader): an orbiting frame takes ~90 ms at a 250 k budget, ~140 ms at 500 k,
 * ~270 ms at 1 M, ~410 ms at 1.5 M (the demo home, 1.37 M points drawn whole: ~760 ms). 1 M keeps
 * orbiting at about four frames a second there, and the view sharp; a real GPU has room to spare.
 */
export const DEFAULT_POINT_BUDGET = 1_000_000;

export type Lod = "items" | "tiles";

/** How a view of `points` points is drawn: `?lod=tiles|items` on the page's address decides, else its size. */
export function lodFor(points: number, search = window.location.search): Lod {
  const asked = new URLSearchParams(search).get("lod");
  if (asked === "tiles" || asked === "items") return asked;
  return points > ITEMS_POINTS_MAX ? "tiles" : "items";
}

/** The tiles' index and its tree, read once. */
interface TilesRead {
  index: TilesIndex;
  root: TileNode;
}

let early: { signal: AbortSignal; read: Promise<TilesRead> } | null = null;

function readTiles(signal: AbortSignal): Promise<TilesRead> {
  return getTilesIndex(signal).then((index) => ({ index, root: tileTree(index) }));
}

/**
 * The whole scene has `points` points: when it will be drawn from tiles, its index — and then the root
 * tile, which every camera needs first — are asked for now, alongside its manifest, rather than after it
 * (TiledView.open takes the index and its tree; the root tile waits in tileData's cache).
 */
export function prefetchTilesIndex(points: number, signal: AbortSignal): void {
  if (lodFor(points) !== "tiles") return;
  const read = readTiles(signal);
  read.then(({ index, root }) => getTile(index, root, signal)).catch(() => undefined); // failures: TiledView.open says
  early = { signal, read };
}

/** The point budget: `?budget=N` (at least 1,000), else the default. */
export function pointBudget(search = window.location.search): number {
  const asked = Number(new URLSearchParams(search).get("budget"));
  return Number.isFinite(asked) && asked >= 1_000 ? Math.floor(asked) : DEFAULT_POINT_BUDGET;
}

/** What a tiled view draws and how: the tiles, and the items loaded whole beside them. */
export class TiledView {
  /** Items loaded item by item (their own clouds), hidden in the tiles. */
  readonly direct: Item[];
  private readonly ids = new Map<string, number>();
  private liftsKey = "";
  private shownKey = "";

  private constructor(readonly layer: TileLayer, readonly model: ViewModel, private readonly codes: string[]) {
    codes.forEach((code, id) => this.ids.set(code, id));
    const asked = model.selection?.candidates ?? model.focus;
    const direct = [...new Set(asked.flatMap((code) => itemsOf(model, code)))];
    const points = direct.reduce((n, i) => n + i.points, 0);
    this.direct = points <= Math.min(DIRECT_POINTS_MAX, layer.budget) ? direct : [];
    for (const item of this.direct) layer.states.hide(this.ids.get(item.code) ?? -1);
  }

  /** Read the tiles' index (the server builds the tiles on first use) and put a tile layer on the stage. */
  static async open(stage: Stage, model: ViewModel, budget: number, signal: AbortSignal): Promise<TiledView> {
    const asked = early?.signal === signal ? early.read : null;
    early = null;
    const { index, root } = await (asked ?? readTiles(signal));
    const layer = stage.showTiles({ index, root, fetch: (node, s) => getTile(index, node, s) }, budget);
    return new TiledView(layer, model, index.items);
  }

  /** The room or object that tile item id `id` stands for (every tile point carries one), or null. */
  codeOf(id: number): string | null {
    return this.codes[id] ?? null;
  }

  /** Points fetched: the tiles' so far and the items loaded whole. */
  pointsFetched(stage: Stage): number {
    return this.layer.pointsLoaded + this.direct.reduce((n, i) => n + (stage.cloud(i.code)?.data.count ?? 0), 0);
  }

  /**
   * Set every tile item's state; `state` says how an item looks, whether it is drawn and its pick id.
   * Items the view does not hold stay hidden; nodes that hold nothing visible are not fetched.
   */
  restyle(state: (item: Item) => { style: CloudStyle; visible: boolean; pickId: number }): void {
    const shown: Bounds[] = [];
    const shownCodes: string[] = [];
    const direct = new Set(this.direct);
    for (const item of this.model.items) {
      const id = this.ids.get(item.code);
      if (id === undefined || direct.has(item)) continue;
      const s = state(item);
      this.layer.states.set(id, { ...s, lift: item.lift, clipZ: clipHeightOf(item.kind, item.sceneBounds) });
      if (s.visible) {
        shown.push(item.sceneBounds);
        shownCodes.push(item.code);
      }
    }
    this.layer.states.commit();
    const shownKey = shownCodes.join(" ");
    if (shownKey !== this.shownKey) {
      this.shownKey = shownKey;
      this.layer.setShown(shown);
    }
    const spans = liftSpans(this.model);
    const liftsKey = JSON.stringify(spans);
    if (liftsKey !== this.liftsKey) {
      this.liftsKey = liftsKey;
      this.layer.setLifts(spans);
    }
  }
}

/** Each floor's extent along the up axis and its lift (exploded floors). */
function liftSpans(model: ViewModel): LiftSpan[] {
  const up = { x: 0, y: 1, z: 2 }[model.upAxis];
  const spans = new Map<string, LiftSpan>();
  for (const item of model.items) {
    const s = spans.get(item.floor) ?? { lo: Infinity, hi: -Infinity, lift: item.lift };
    spans.set(item.floor, { lo: Math.min(s.lo, item.sceneBounds.min[up]), hi: Math.max(s.hi, item.sceneBounds.max[up]), lift: item.lift });
  }
  return [...spans.values()].filter((s) => s.lift !== 0);
}
