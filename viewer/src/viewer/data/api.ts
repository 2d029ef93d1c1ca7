// The viewer's side of the HTTP API (on the API server only: apiBase.ts): the shapes it reads, and one error type that
// keeps what went wrong (no answer, an HTTP status with the server's {"error","message"}, bad data)
// so that errors.ts can turn it into a sentence people can act on. The shapes are generated from the
// server's OpenAPI document (src/generated/api.ts, by `npm run types`), so the build fails when they drift.
import type { components } from "../../generated/api";

export type Vec3 = [number, number, number];

type Schemas = components["schemas"];

export type Bounds = Schemas["Bounds"];

/** The scene manifest as GET /api/scenes/<id> returns it (scene_agent/scene/manifest.py). */
export type SceneManifest = Schemas["SceneManifest"];

export type SceneList = Schemas["SceneList"];

/** A view manifest as GET /manifests/<view>.json returns it (scene_agent/selection/views.py ViewManifest). */
export type ViewManifest = Schemas["ViewManifest"];

export type SessionMode = SessionState["mode"];
export type SessionStatus = SessionState["status"];

/** A selection session as GET /api/sessions/<id> returns it (api_server/bodies.py SessionState); its
 *  `selections` are the picks, once confirmed. */
export type SessionState = Schemas["SessionState"];

import { apiPath } from "../../apiBase";
import { ApiError, getJson, postJson } from "../../http";

export { ApiError, getBytes, getJson, postJson } from "../../http";

export function getSession(sessionId: string, signal?: AbortSignal): Promise<SessionState> {
  return getJson<SessionState>(`/api/sessions/${encodeURIComponent(sessionId)}`, signal);
}

export function submitSelection(sessionId: string, codes: string[]): Promise<unknown> {
  const body: Schemas["SubmitSelection"] = { session_id: sessionId, selections: codes.map((itemCode) => ({ itemCode })) };
  return postJson("/api/submit-selection", body);
}

/** More time to pick: the session's deadline moves `seconds` later; its new state (seconds_left, expires_at). */
export function extendSelection(sessionId: string, seconds = 60): Promise<SessionState> {
  const body: Schemas["ExtendSelection"] = { session_id: sessionId, seconds };
  return postJson<SessionState>("/api/extend-selection", body);
}

export function cancelSelection(sessionId: string): Promise<unknown> {
  const body: Schemas["CancelSelection"] = { session_id: sessionId };
  return postJson("/api/cancel-selection", body);
}

/** Only paths on the API server (apiBase.ts) are followed: a manifest cannot send the viewer elsewhere. */
export function sameOriginPath(path: string): string {
  const onServer = apiPath(path);
  if (onServer === null) throw new ApiError("data", path, 0, "foreign_url", "not an address on the API server");
  return onServer;
}
