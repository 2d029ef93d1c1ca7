// The viewer's side of the HTTP API (same origin only): the shapes it reads, and one error type that
// keeps what went wrong (no answer, an HTTP status with the server's {"error","message"}, bad data)
// so that errors.ts can turn it into a sentence people can act on.

export type Vec3 = [number, number, number];

export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** The scene manifest as GET /api/scenes/<id> returns it (scene_agent/manifest.py). */
export interface SceneManifest {
  scene_id: string;
  name: string;
  up_axis: "x" | "y" | "z";
  floors: {
    code: string;
    name?: string | null;
    rooms: {
      code: string;
      type: string;
      name?: string | null;
      point_count: number;
      bounds: Bounds;
      objects: { code: string; label: string; point_count: number; bounds: Bounds }[];
    }[];
  }[];
}

export interface SceneList {
  scenes: { scene_id: string; name: string; url: string; points: number }[];
}

/** scene_agent/views.py ViewManifest. */
export interface ViewManifest {
  view: string;
  scene_id: string;
  scene_name: string;
  scene_url: string;
  mode: SessionMode;
  selection: boolean;
  session_id: string | null;
  prompt: string | null;
  multiple: boolean;
  expires_at: string | null;
  focus: string[];
  items: {
    code: string;
    kind: "room" | "object";
    role: "focus" | "context";
    label: string;
    name: string | null;
    room: string;
    floor: string;
    bounds: Bounds;
    points: number;
    points_url: string;
  }[];
}

export type SessionMode = "room" | "objects" | "multi-room";
export type SessionStatus = "pending" | "confirmed" | "cancelled" | "expired";

/** api_server/bodies.py SessionState. */
export interface SessionState {
  session_id: string;
  status: SessionStatus;
  mode: SessionMode;
  candidates: string[];
  labels: Record<string, string>;
  prompt: string;
  multiple: boolean;
  seconds_left: number;
  expires_at: string;
  /** The picks, once confirmed. */
  selections: { itemCode: string }[];
}

import { ApiError, getJson, postJson } from "../http";

export { ApiError, getBytes, getJson, postJson } from "../http";

export function getSession(sessionId: string, signal?: AbortSignal): Promise<SessionState> {
  return getJson<SessionState>(`/api/sessions/${encodeURIComponent(sessionId)}`, signal);
}

export function submitSelection(sessionId: string, codes: string[]): Promise<unknown> {
  return postJson("/api/submit-selection", { session_id: sessionId, selections: codes.map((itemCode) => ({ itemCode })) });
}

export function cancelSelection(sessionId: string): Promise<unknown> {
  return postJson("/api/cancel-selection", { session_id: sessionId });
}

/** Only same-origin paths are followed: a manifest cannot send the viewer elsewhere. */
export function sameOriginPath(path: string): string {
  const url = new URL(path, window.location.href);
  if (url.origin !== window.location.origin) throw new ApiError("data", path, 0, "foreign_url", "not a same-origin address");
  return url.pathname + url.search;
}
