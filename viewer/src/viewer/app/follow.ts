// The viewer follows the conversation: when a run ends, it shows what the answer is about, and a code clicked in
// an answer is framed (ViewerHandle.follow and .frame, contracts.ts). A pick still waiting belongs to the running
// turn and is never taken away; a finished one gives way to the answer's codes; a view the user is looking at stays
// while it shows some of them on screen (the camera is theirs); otherwise each object is framed in its room.

import { WHOLE_SCENE, type AnswerShown, type ViewTarget } from "../../contracts";
import { itemsOf } from "../data/model";
import type { Place } from "../navigation/history";
import type { Places } from "./places";
import type { ViewerStore } from "./store";

export interface FollowHost {
  /** Go to `place` (a new history entry) and frame `codes` there once its model is read. */
  visit(place: Place, codes: string[]): Promise<void>;
  /** A finished pick's prompt and hint are over: off the panel. */
  dropPrompt(): void;
}

/** The room an object code (F-R-O) or a room code (F-R) is in; null for anything else. */
export function roomOf(code: string): string | null {
  const parts = code.split("-");
  return (parts.length === 2 || parts.length === 3) && parts.every((p) => /^\d+$/.test(p)) ? `${parts[0]}-${parts[1]}` : null;
}

/** The one room all `codes` are in, or null when they are in several (or none). */
function commonRoom(codes: string[]): string | null {
  const rooms = new Set(codes.map(roomOf));
  const [room] = rooms;
  return rooms.size === 1 ? room ?? null : null;
}

export class Following {
  constructor(private readonly store: ViewerStore, private readonly places: Places, private readonly host: FollowHost) {}

  follow(answer: AnswerShown): boolean {
    const { store } = this;
    const own = store.sessionId !== null && answer.sessions.includes(store.sessionId);
    if (this.pickWaiting()) {
      // Another turn's pick is left alone; the run's own is over with the run, and stays shown while the answer
      // sent from here (Confirm) is still on its way.
      if (own) this.host.dropPrompt();
      return false;
    }
    if (answer.manifest && answer.manifest !== store.target.manifest) {
      // "show me room 0-7": the view the answer made, view-only; it frames its focus by itself
      const target: ViewTarget = { manifest: answer.manifest, selectionMode: false, sessionId: null, prompt: null };
      void this.host.visit({ target, floor: null, room: null }, []);
      return true;
    }
    const finished = store.mode === "selection";
    const codes = answer.codes;
    if (!codes.length) {
      if (finished) this.host.dropPrompt();
      return false;
    }
    const holds = this.holds(codes);
    if (finished) {
      // The run's own pick, answered: what it shows is what the answer is about (the pick among the candidates).
      if (holds && own) {
        this.host.dropPrompt();
        return false;
      }
      return this.go(WHOLE_SCENE, codes);
    }
    if (holds && codes.some((code) => this.places.shows(code))) return false;
    return this.go(holds ? store.target : WHOLE_SCENE, codes);
  }

  /** A code clicked: framed in the view shown when it has it (a waiting pick only so), else in the whole scene. */
  frame(code: string): Promise<void> {
    if (this.pickWaiting()) {
      if (this.holds([code])) this.places.frameCodes([code]);
      return Promise.resolve();
    }
    return this.visit(this.store.mode === "view" && this.holds([code]) ? this.store.target : WHOLE_SCENE, [code]);
  }

  /** A selection session asks the user to pick (or is being opened, or an answer is on its way). */
  private pickWaiting(): boolean {
    const { mode, state } = this.store;
    return mode === "selection" && (state === "loading" || state === "ready" || state === "submitting");
  }

  /** The view shown (loaded, not failed) has every one of `codes`. */
  private holds(codes: string[]): boolean {
    const model = this.store.model;
    return model !== null && this.store.state !== "error" && codes.every((code) => itemsOf(model, code).length > 0);
  }

  private go(target: ViewTarget, codes: string[]): boolean {
    void this.visit(target, codes);
    return true;
  }

  private visit(target: ViewTarget, codes: string[]): Promise<void> {
    return this.host.visit({ target, floor: null, room: commonRoom(codes) }, codes);
  }
}
