// Where in the view the user is: the floor shown alone, the room looked inside, and what the camera frames —
// the room looked inside, else the candidates or the focus, else what is visible. The title says which
// (titles.ts), and "Whole scene" whether that is the whole scene (topBar.ts). Going there is navigation.ts's.

import { itemsOf, padded, unionBounds } from "../data/model";
import { isVisible } from "../looks/looks";
import type { Wanted } from "../navigation/navigation";
import { roomRows, viewTitle } from "../panel/titles";
import type { ViewerParts } from "./parts";
import type { ViewerStore } from "./store";
import type { Styling } from "./styling";

export class Places {
  constructor(private readonly store: ViewerStore, private readonly parts: ViewerParts, private readonly styling: Styling) {}

  /** The wanted floor and room, where the model has them, and what to frame there. */
  apply(wanted: Wanted): void {
    const model = this.store.model;
    if (!model) return;
    const floor = model.floors.some((f) => f.code === wanted.floor) ? wanted.floor : null;
    const room = model.items.some((i) => i.kind === "room" && i.code === wanted.room) ? wanted.room : null;
    if (floor !== this.store.floor) this.setFloor(floor);
    if (room !== this.store.drillRoom) this.drill(room);
    if (wanted.frame?.length) this.frameCodes(wanted.frame);
    this.showTitle();
  }

  frameCodes(codes: string[]): void {
    const model = this.store.model;
    const stage = this.parts.stage();
    if (!model || !stage) return;
    const bounds = unionBounds(codes.flatMap((c) => itemsOf(model, c)).map((i) => i.bounds));
    if (!bounds) return;
    stage.frame(padded(bounds), this.parts.view.visibleRects() ?? this.parts.panel.insetLeft());
    this.store.framed = [...codes];
  }

  /** Whether the user sees some of `code` now: an item of it drawn, in a part of the canvas nothing covers. */
  shows(code: string): boolean {
    const model = this.store.model;
    const stage = this.parts.stage();
    const look = this.styling.look();
    if (!model || !stage || !look) return false;
    const free = this.parts.view.visibleRects() ?? [{ left: 0, top: 0, ...stage.size }];
    return itemsOf(model, code).filter((i) => isVisible(look, i)).some((item) => {
      const box = stage.projectBox(item.bounds);
      return !!box && free.some((r) => box.left < r.left + r.width && r.left < box.left + box.width
                                         && box.top < r.top + r.height && r.top < box.top + box.height);
    });
  }

  /** Frame what matters now: the room looked into, else the candidates or focus, else what is visible. */
  frameDefault(): void {
    const model = this.store.model;
    if (!model) return;
    if (this.store.drillRoom) return this.frameCodes([this.store.drillRoom]);
    const look = this.styling.look()!;
    const visible = model.items.filter((i) => isVisible(look, i));
    const asked = model.selection?.candidates ?? model.focus;
    if (asked.length && this.store.floor === null) return this.frameCodes(asked);
    this.frameCodes(visible.map((i) => i.code));
  }

  /** Look inside a room (its structure and objects alone, objects labelled); null = back. */
  drill(room: string | null, frame = true): void {
    const model = this.store.model;
    if (!model) return;
    this.store.drillRoom = room;
    this.parts.panel.setDrill(room ? roomRows(model, room) : null);
    if (frame) this.frameDefault();
    this.styling.restyle();
    this.showTitle();
  }

  setFloor(code: string | null): void {
    this.store.floor = code;
    this.parts.panel.setFloor(code);
    if (this.store.drillRoom) this.drill(null, false);
    this.frameDefault();
    this.styling.restyle();
    this.showTitle();
  }

  /** The title says what is shown; the Whole scene button says whether that is it. */
  showTitle(): void {
    const { model, target } = this.store;
    const bar = this.parts.panel.bar;
    bar.setTitle(() => (model ? viewTitle(model, this.store.floor, this.store.drillRoom) : ""));
    const whole = !target.manifest && this.store.floor === null && this.store.drillRoom === null && this.store.state !== "error";
    bar.setAtWholeScene(whole);
  }
}
