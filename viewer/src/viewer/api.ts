// The viewer's side of the HTTP API (same origin only): the shapes it reads, and one error type that
// keeps what went wrong (no answer, an HTTP status with the server's {"error","message"}, bad data)
// so that errors.ts can turn it into a sentence people can act on.

export type Vec3 = [number, number, number];

export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** SPEC §3: the scene manifest as GET /api/scenes/<id> returns it. */
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

/** Why a request failed: no answer at all, an HTTP error status, or an answer that is not what was expected. */
export class ApiError extends Error {
  constructor(
    readonly kind: "network" | "http" | "data",
    readonly url: string,
    readonly status: number,
    readonly code: string,
    readonly serverMessage: string,
  ) {
    super(`${kind} ${status} ${code}: ${serverMessage} (${url})`);
  }
}

async function request(url: string, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin", ...init });
  } catch (exc) {
    throw new ApiError("network", url, 0, "network", String(exc));
  }
  if (!response.ok) {
    let code = "http_error";
    let message = response.statusText || `HTTP ${response.status}`;
    try {
      const body = (await response.json()) as { error?: unknown; message?: unknown };
      if (typeof body.error === "string") code = body.error;
      if (typeof body.message === "string") message = body.message;
    } catch {
      // not a JSON error body (a proxy's page, say): keep the status text
    }
    throw new ApiError("http", url, response.status, code, message);
  }
  return response;
}

/** GET a JSON document. */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await request(url, { signal, headers: { Accept: "application/json" } });
  try {
    return (await response.json()) as T;
  } catch (exc) {
    throw new ApiError("data", url, response.status, "bad_json", String(exc));
  }
}

/** GET binary data. */
export async function getBytes(url: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const response = await request(url, { signal });
  try {
    return await response.arrayBuffer();
  } catch (exc) {
    throw new ApiError("network", url, 0, "network", String(exc));
  }
}

/** POST a JSON body, read a JSON answer. */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as T;
}

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
