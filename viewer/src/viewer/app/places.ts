// Where in the view the user is: the floor shown alone, the room looked inside, and what the camera frames —
// the room looked inside, else the candidates or the focus, else what is visible. A pick frames first only the
// candidates big enough to pick together (candidateFraming.ts), on their floor alone when they are one floor's of
// several; "Frame all" frames every one. The title says which (titles.ts), and "Whole scene" whether that is the
// whole scene (topBar.ts). Going there is navigation.ts's.

import { candidateGroupKey, itemsOf, padded, unionBounds, type Item } from "../data/model";
import { isVisible } from "../looks/looks";
import type { Wanted } from "../navigation/navigation";
import { roomRows, viewTitle } from "../panel/titles";
import { planFraming } from "../stage/candidateFraming";
import type { ScreenRect } from "../stage/framing";
import type { ViewerParts } from "./parts";
import type { ViewerStore } from "./store";
import type { Styling } from "./styling";

export class Places {
  constructor(private readonly store: ViewerStore, private readonly parts: ViewerParts, private readonly styling: Styling) {}

  /** A pick over several floors whose first framing is one floor's candidates: that floor (shown alone at first). */
  private startFloor: string | null = null;

  /**
   * The wanted floor and room, where the model has them, and what to frame there. `first`: the view was just
   * loaded — a pick over several floors that frames one floor's candidates first shows that floor alone.
   */
  apply(wanted: Wanted, first = false): void {
    const model = this.store.model;
    if (!model) return;
    let floor = model.floors.some((f) => f.code === wanted.floor) ? wanted.floor : null;
    const room = model.items.some((i) => i.kind === "room" && i.code === wanted.room) ? wanted.room : null;
    if (first && floor === null && room === null && !wanted.frame?.length) floor = this.startFloor;
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
    stage.frame(padded(bounds), this.uncovered());
    this.store.framed = [...codes];
    this.parts.labels.framed = new Set(codes);
  }

  /**
   * What was framed last, framed again in the canvas as it is uncovered now, unless the user has moved the camera
   * since: the panels' final sizes (a status line, a late web font) then decide the view, not the moment it was framed.
   */
  refit(): void {
    const stage = this.parts.stage();
    const bounds = stage?.framedBounds;
    if (stage && bounds) stage.frame(bounds, this.uncovered());
  }

  /** The part of the canvas framing may use: what the panels leave uncovered (stage.ts frame). */
  private uncovered(): ScreenRect[] | number {
    return this.parts.view.visibleRects() ?? this.parts.panel.insetLeft();
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

  /** Frame what matters now: the room looked into, else the candidates that matter or the focus, else what is visible. */
  frameDefault(): void {
    this.frameWhatMatters(false);
  }

  /** "Frame all": as frameDefault, but every candidate of a pick. */
  frameAll(): void {
    this.frameWhatMatters(true);
  }

  private frameWhatMatters(all: boolean): void {
    const model = this.store.model;
    if (!model) return;
    if (this.store.drillRoom) return this.frameCodes([this.store.drillRoom]);
    const look = this.styling.look()!;
    const visible = model.items.filter((i) => isVisible(look, i));
    const floor = this.store.floor;
    if (floor === null) this.startFloor = null;
    if (model.selection) { // a pick: its candidates (on the floor shown alone)
      const asked = this.candidatesOn(floor);
      if (asked.length) return all ? this.frameCodes(asked) : this.frameCandidates(asked);
    } else if (model.focus.length && floor === null) return this.frameCodes(model.focus);
    this.frameCodes(visible.map((i) => i.code));
  }

  /** A pick's candidates (on `floor`, unless null). */
  private candidatesOn(floor: string | null): string[] {
    return this.store.candidates.filter((c) => floor === null || this.itemOf(c)?.floor === floor);
  }

  /** A pick's first framing: the candidates big enough to pick together; the others are listed with "Show". */
  private frameCandidates(asked: string[]): void {
    const model = this.store.model!;
    const stage = this.parts.stage();
    const byCode = new Map(model.items.map((i) => [i.code, i]));
    const places = asked.flatMap((code) => {
      const item = byCode.get(code);
      return item ? [{ code, group: candidateGroupKey(item), floor: item.floor, bounds: item.bounds }] : [];
    });
    const plan = planFraming(places, (codes) => {
      this.frameCodes(codes);
      const sides = codes.map((code) => {
        const box = stage?.projectBox(byCode.get(code)!.bounds);
        return box ? Math.min(box.width, box.height) : 0;
      });
      return Math.min(...sides);
    });
    this.frameCodes(plan.framed);
    const floors = [...new Set(plan.framed.map((c) => byCode.get(c)!.floor))];
    if (this.store.floor === null && floors.length === 1 && asked.some((c) => byCode.get(c)?.floor !== floors[0])) {
      this.startFloor = floors[0]; // the others' floors would be drawn over it: that floor alone at first
    }
    this.store.far = this.store.candidates.filter((c) => !plan.framed.includes(c));
    this.parts.panel.candidateList.setFar(this.store.far);
  }

  /**
   * What to frame for a candidate picked in the list: nothing (null) when it is framed and in sight already, else its
   * group (the candidates of its room, or of its floor).
   */
  groupToShow(code: string): string[] | null {
    const item = this.itemOf(code);
    if (!item || (this.store.framed.includes(code) && this.shows(code))) return null;
    const key = candidateGroupKey(item);
    return this.store.candidates.filter((c) => {
      const other = this.itemOf(c);
      return other && candidateGroupKey(other) === key;
    });
  }

  /** The floor to show for `codes` when the floor shown alone does not hold them all (null: all floors), else undefined. */
  floorFor(codes: string[]): string | null | undefined {
    const shown = this.store.floor;
    const floors = new Set(codes.map((c) => this.itemOf(c)?.floor));
    if (shown === null || (floors.size === 1 && floors.has(shown))) return undefined;
    return floors.size === 1 ? [...floors][0] ?? null : null;
  }

  private itemOf(code: string): Item | undefined {
    return this.store.model ? itemsOf(this.store.model, code).find((i) => i.code === code) : undefined;
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
