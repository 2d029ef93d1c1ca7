// The viewer's keyboard contract: Space picks the focused candidate, Enter confirms, Escape leaves a room looked
// inside, else asks "Cancel this pick?" and a second Escape cancels (sessionFlow.ts). Tab and the arrows move
// between candidates (panel.ts). Keys typed in the chat or in a text field are theirs, not the viewer's.

import type { SessionFlow } from "./sessionFlow";

export interface KeyTarget {
  root: HTMLElement;
  session(): SessionFlow | null;
  inRoom(): boolean;
  leaveRoom(): void;
}

export function viewerKey(e: KeyboardEvent, on: KeyTarget): void {
  const el = e.target as HTMLElement | null;
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || !el) return;
  if (el !== document.body && !on.root.contains(el)) return; // keys typed in the chat are the chat's
  if (el.closest("input, textarea, select, [contenteditable]")) return;
  const session = on.session();
  const row = el.closest<HTMLElement>("[data-code]");
  if (e.key === " " && row && session) {
    e.preventDefault();
    session.toggle(row.dataset.code!);
  } else if (e.key === "Enter" && session && !(el instanceof HTMLButtonElement)) {
    e.preventDefault();
    void session.confirm();
  } else if (e.key === "Escape") {
    if (on.inRoom()) on.leaveRoom();
    else if (session) session.escape();
  }
}
