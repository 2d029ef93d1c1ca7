// Going from view to view: the whole scene, a floor shown alone, a room looked inside, a view the chat opened.
// Each is a history entry (history.ts), so Back and Forward move between them without leaving the page; a
// place within the target already shown changes only its floor and room, another target is loaded.

import { sameTarget, type ViewTarget } from "../../contracts";
import { ViewHistory, type Place } from "./history";

export interface Wanted {
  floor: string | null;
  room: string | null;
  frame: string[] | null;
}

export interface NavigationHost {
  /** The target shown (or being loaded) now. */
  target(): ViewTarget;
  /** The target shown now is loaded and shown (a place within it needs no new load). */
  loaded(): boolean;
  /** Load another target (its floor and room come from `wanted` once its model is read). */
  load(target: ViewTarget, initial: boolean): Promise<void>;
  /** Show `wanted`'s floor and room in the loaded target. */
  applyPlace(): void;
  /** Back or Forward is about to show an entry again: the camera its address names comes back with it. */
  returning(): void;
}

export class Navigation {
  /** The floor and the room to show in the current target, once it is loaded (from a link, or Back/Forward), and
   *  what to frame there (an answer's codes, a code clicked; null: what the place frames by itself). */
  wanted: Wanted = { floor: null, room: null, frame: null };
  private readonly history: ViewHistory;

  constructor(private readonly host: NavigationHost) {
    this.history = new ViewHistory((place) => {
      this.host.returning();
      void this.visit(place, "none");
    });
  }

  /** Show `place`: `how` says what becomes of the history — a new entry (the user went there), this entry (the
   *  page's first view), or none (Back/Forward brought it); `frame`: codes to frame there. */
  async visit(place: Place, how: "push" | "replace" | "none", initial = false, frame: string[] | null = null): Promise<void> {
    if (how === "push") this.history.push(place);
    else if (how === "replace") this.history.replace(place);
    this.wanted = { floor: place.floor, room: place.room, frame };
    if (!initial && this.host.loaded() && sameTarget(place.target, this.host.target())) {
      this.host.applyPlace();
      return;
    }
    await this.host.load(place.target, initial);
  }

  /** The user goes to another floor or room of the target shown: an entry of its own. */
  go(floor: string | null, room: string | null): void {
    void this.visit({ target: this.host.target(), floor, room }, "push");
  }
}
