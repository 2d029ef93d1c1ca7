// The looks of looks.ts applied: from the state (store.ts) — the candidates, the picks, the item hovered, the
// floor, the room looked inside — and the view controls' choices, every item's style, whether it is drawn and
// its pick id go to its own cloud and to the tiles (tiledView.ts), and the labels, the boxes, the legend, the
// panel's list and the cursor follow.

import type { Item } from "../data/model";
import { isVisible, labelsOf, onTop, outlinesOf, styleOf, targetOf, type Look } from "../looks/looks";
import type { ViewerParts } from "./parts";
import type { ViewerStore } from "./store";

export class Styling {
  constructor(private readonly store: ViewerStore, private readonly parts: ViewerParts) {}

  /** What the looks depend on now (null until a model is read). */
  look(): Look | null {
    const { model } = this.store;
    if (!model) return null;
    const section = this.parts.stage()?.section ?? Infinity;
    return { model, selection: !!model.selection, candidates: new Set(this.store.candidates), selected: new Set(this.store.selected),
             hovered: this.store.hovered, drillRoom: this.store.drillRoom, floor: this.store.floor, options: this.parts.view.options,
             clip: this.store.clipBox, section: Number.isFinite(section) ? section : null };
  }

  /** An item's own cloud, once it is on the stage. */
  styleCloud(item: Item, look = this.look()): void {
    const stage = this.parts.stage();
    const cloud = stage?.cloud(item.code);
    if (!stage || !cloud || !look) return;
    stage.setStyle(cloud, styleOf(look, item), isVisible(look, item), this.pickIdOf(look, item), onTop(look, item));
  }

  /** Everything drawn, after anything it depends on changed. */
  restyle(): void {
    const look = this.look();
    const stage = this.parts.stage();
    if (!look || !stage) return;
    const { panel, labels, view } = this.parts;
    for (const cloud of stage.allClouds()) this.styleCloud(cloud.item, look);
    this.store.tiled?.restyle((item) => ({ style: styleOf(look, item), visible: isVisible(look, item), pickId: this.pickIdOf(look, item) }));
    labels.set(labelsOf(look));
    stage.setCutaway(look.drillRoom);
    stage.setOutlines(outlinesOf(look));
    view.update(look.model.items.filter((i) => isVisible(look, i)));
    panel.setSelection(look.selected, this.store.hovered, look.model.selection?.multiple ?? false);
    stage.canvas.style.cursor = this.store.hovered && look.selection ? "pointer" : "";
    stage.requestRender();
  }

  /** The labels only, after the cut moved (what it hides is hidden by the shaders as they draw). */
  relabel(): void {
    const look = this.look();
    if (!look) return;
    this.parts.labels.set(labelsOf(look));
    this.parts.stage()?.requestRender();
  }

  /** The pick id of an item's points now (0: not pickable). */
  private pickIdOf(look: Look, item: Item): number {
    const target = targetOf(look, item);
    const pickable = !look.selection || this.store.state === "ready" || this.store.state === "loading";
    return target !== null && pickable ? this.store.targetIds.get(target) ?? 0 : 0;
  }
}
