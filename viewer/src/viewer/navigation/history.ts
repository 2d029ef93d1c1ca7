// The browser's Back and Forward between views. Every view the user goes to — the whole scene, a floor shown
// alone, a room looked inside, a view or a pick the chat opened — is one history entry (pushState) whose state
// says what to show; popstate shows that again in place, so Back never leaves the page. The entry's URL says
// the same thing, so a link, a reload or a bookmark opens the same view from the URL alone. On a page served from
// elsewhere (the MCP App page) the address is kept aside instead, and there are no entries (address.ts).

import { servedElsewhere } from "../../apiBase";
import { parseViewerUrl, sameTarget, targetUrl, type ViewTarget } from "../../contracts";
import { addressState, setAddress } from "./address";

/** What is shown: a target, and within it the floor shown alone and the room looked inside (null: none). */
export interface Place {
  target: ViewTarget;
  floor: string | null;
  room: string | null;
}

const KEY = "sceneViewerPlace";

/** The place a page address names (?manifest, ?selectionMode, ?sessionId, ?prompt, ?floor, ?room). */
export function placeOfUrl(href: string): Place {
  const params = new URL(href, window.location.href).searchParams;
  return { target: parseViewerUrl(href), floor: params.get("floor") || null, room: params.get("room") || null };
}

export function samePlace(a: Place, b: Place): boolean {
  return sameTarget(a.target, b.target) && a.floor === b.floor && a.room === b.room;
}

function isPlace(value: unknown): value is Place {
  const place = value as Place | null;
  return !!place && typeof place === "object" && !!place.target && typeof place.target === "object"
    && "manifest" in place.target && "selectionMode" in place.target;
}

export class ViewHistory {
  private current: Place | null = null;

  constructor(onPop: (place: Place) => void) {
    window.addEventListener("popstate", (e) => {
      if (servedElsewhere()) return; // no entries of ours
      const saved = (e.state as Record<string, unknown> | null)?.[KEY];
      const place = isPlace(saved) ? saved : placeOfUrl(window.location.href); // an entry made by hand (a typed URL)
      this.current = place;
      onPop(place);
    });
  }

  /** This entry shows `place` (the page's first view, or a change not worth an entry of its own). */
  replace(place: Place): void {
    this.current = place;
    const state = { ...((addressState() as Record<string, unknown> | null) ?? {}), [KEY]: place };
    setAddress(targetUrl(place.target, place), state, "replace");
  }

  /** The user goes to `place`: a new entry, unless it is the one shown already. */
  push(place: Place): void {
    if (this.current && samePlace(this.current, place)) return this.replace(place);
    this.current = place;
    setAddress(targetUrl(place.target, place), { [KEY]: place }, "push");
  }
}
