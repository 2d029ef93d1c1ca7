// Requests to the API server (this page's origin, or the one apiBase.ts names) for both halves of the page: JSON and
// binary GETs, JSON POSTs, and one error type saying what went wrong — no answer, an HTTP error with the server's
// {error, message}, or an answer that is not what was expected. Callers name paths (`/api/…`); errors keep them.
import { apiUrl } from "./apiBase";

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
    // cookies only to this page's own origin: a request to an API server elsewhere carries none
    response = await fetch(apiUrl(url), { credentials: "same-origin", ...init });
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
