// The keys that move around the view: W A S D or the arrows walk and step sideways, Q and E turn, + and − zoom,
// F frames the picks or the room (what was framed last), R resets the view, "/" goes to the search box. Never while
// the user types (the search box, the chat, any field) or uses a control the keys belong to (a list's rows, a slider),
// and never with Ctrl, Alt or ⌘ (the browser's shortcuts). The pick's own keys (Space, Enter, Escape) are
// session/keys.ts's.

import type { Stage } from "../stage/stage";
import { turn, walk, zoom } from "../stage/cameraMoves";

export interface MoveKeysHost {
  root: HTMLElement;
  stage(): Stage | null;
  /** F: frame the picks, the room looked inside, or what was framed last. */
  frameCurrent(): void;
  /** R: the view as it was framed at first (Reset view). */
  reset(): void;
  /** "/": the search box. */
  focusSearch(): void;
}

const MOVES: Record<string, [forward: number, right: number]> = {
  w: [1, 0], arrowup: [1, 0], s: [-1, 0], arrowdown: [-1, 0], a: [0, -1], arrowleft: [0, -1], d: [0, 1], arrowright: [0, 1],
};
const ZOOMS: Record<string, number> = { "+": 1, "=": 1, "-": -1, _: -1 };
const TURNS: Record<string, number> = { q: 1, e: -1 };

/** Whether the key is the user's typing or a control's own (then the camera stays). */
function typing(e: KeyboardEvent, root: HTMLElement): boolean {
  const el = e.target as HTMLElement | null;
  if (!el || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return true;
  if (el !== document.body && !root.contains(el)) return true; // the chat's
  return !!el.closest("input, textarea, select, [contenteditable], [role=listbox], [role=option], .sv-row");
}

/** Handle `e` if it is one of the keys above; true when it was. */
export function moveKey(e: KeyboardEvent, host: MoveKeysHost): boolean {
  if (typing(e, host.root)) return false;
  const key = e.key.toLowerCase();
  const stage = host.stage();
  if (key === "/") host.focusSearch();
  else if (!stage) return false;
  else if (MOVES[key]) walk(stage, ...MOVES[key]);
  else if (ZOOMS[key] !== undefined) zoom(stage, ZOOMS[key]);
  else if (TURNS[key] !== undefined) turn(stage, TURNS[key]);
  else if (key === "f") host.frameCurrent();
  else if (key === "r") host.reset();
  else return false;
  e.preventDefault();
  return true;
}
