// Checking a viewer link before anything is fetched: a manifest must be the address of one of this server's
// views, a session id must be well-formed. A link that is neither is said to be broken, in words, without
// asking the server (whose answer to a path like ../../etc/passwd would be a raw 404 page).
import { apiPath } from "../../apiBase";
import type { ViewTarget } from "../../contracts";
import { SESSION_ID, VIEW_NAME, selectionView } from "../../generated/names";

/** The link cannot name a view of this server: its manifest address, or its session id, is malformed. */
export class BadLink extends Error {
  constructor(readonly part: "view" | "session") {
    super(`not a viewer link: bad ${part}`);
  }
}

// The server's session ids and view names come from its OpenAPI document (generated/names.ts, written by
// api_server/openapi_dump.py at build time): defined once, in scene_agent/selection/.
const MANIFESTS = "/manifests/";

function isViewPath(path: string): boolean {
  return path.startsWith(MANIFESTS) && path.endsWith(".json") && VIEW_NAME.test(path.slice(MANIFESTS.length, -5));
}

/** The target with its manifest as a path on the API server (a pick's own view when the link names only its session);
 *  BadLink when the link cannot be one of ours. */
export function checkTarget(target: ViewTarget): ViewTarget {
  let manifest = target.manifest;
  let selectionMode = target.selectionMode;
  if (target.sessionId !== null || selectionMode) {
    if (!target.sessionId || !SESSION_ID.test(target.sessionId)) throw new BadLink("session");
    if (manifest === null) { // a link naming only its session: the pick's own view
      manifest = `${MANIFESTS}${selectionView(target.sessionId)}.json`;
      selectionMode = true;
    }
  }
  if (manifest !== null) {
    const path = apiPath(manifest); // on the API server (apiBase.ts), or not ours
    if (path === null || !isViewPath(path)) throw new BadLink("view");
    manifest = path;
  }
  return { ...target, manifest, selectionMode };
}
