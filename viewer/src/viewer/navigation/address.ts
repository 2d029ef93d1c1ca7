// The address of the place shown: what history.ts writes for each place, cameraLink.ts adds the camera to, and "Copy
// link" copies. On the page the API server serves it is the page's own (a history entry per place, Back and Forward).
// On a page served from elsewhere (apiBase.ts: the MCP App page, in a host's frame) the page's address names no view
// and is not the viewer's to change: the address is kept here instead, on the API server's viewer page, and no
// history entries are made (Back and Forward belong to the page around it).

import { apiOrigin, servedElsewhere } from "../../apiBase";

let kept: string | null = null;

/** The address of the place shown (absolute). */
export function addressHref(): string {
  return servedElsewhere() ? kept ?? `${apiOrigin()}/` : window.location.href;
}

/** The state saved with the address (history.ts keeps the place in it); none when the address is kept here. */
export function addressState(): unknown {
  return servedElsewhere() ? null : window.history.state;
}

/** The place shown now has address `url` (relative to the one before): a new history entry ("push") or this one. */
export function setAddress(url: string, state: unknown, how: "push" | "replace"): void {
  if (servedElsewhere()) kept = new URL(url, addressHref()).href;
  else if (how === "push") window.history.pushState(state, "", url);
  else window.history.replaceState(state, "", url);
}
