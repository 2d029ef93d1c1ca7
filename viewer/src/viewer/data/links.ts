// Checking a viewer link before anything is fetched: a manifest must be the address of one of this server's
// views, a session id must be well-formed. A link that is neither is said to be broken, in words, without
// asking the server (whose answer to a path like ../../etc/passwd would be a raw 404 page).
import type { ViewTarget } from "../../contracts";

/** The link cannot name a view of this server: its manifest address, or its session id, is malformed. */
export class BadLink extends Error {
  constructor(readonly part: "view" | "session") {
    super(`not a viewer link: bad ${part}`);
  }
}

// The server's session ids (scene_agent/selection/session.py SESSION_ID_RE) and view names under /manifests/
// (scene_agent/selection/views.py VIEW_NAME_RE).
const SESSION_ID = /^[0-9a-f]{32}$/;
const VIEW_PATH = /^\/manifests\/[a-z]+-[0-9a-f]{16,32}\.json$/;

/** The target with its manifest as a same-origin path (a pick's own view when the link names only its session);
 *  BadLink when the link cannot be one of ours. */
export function checkTarget(target: ViewTarget): ViewTarget {
  let manifest = target.manifest;
  let selectionMode = target.selectionMode;
  if (target.sessionId !== null || selectionMode) {
    if (!target.sessionId || !SESSION_ID.test(target.sessionId)) throw new BadLink("session");
    if (manifest === null) { // a link naming only its session: the pick's own view
      manifest = `/manifests/select-${target.sessionId}.json`;
      selectionMode = true;
    }
  }
  if (manifest !== null) {
    let url: URL;
    try {
      url = new URL(manifest, window.location.href);
    } catch {
      throw new BadLink("view");
    }
    if (url.origin !== window.location.origin || !VIEW_PATH.test(url.pathname) || url.search) throw new BadLink("view");
    manifest = url.pathname;
  }
  return { ...target, manifest, selectionMode };
}
