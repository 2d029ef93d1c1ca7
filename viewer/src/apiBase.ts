// Where the API server is, for every request the page makes (http.ts, chat/stream.ts): by default this page's own
// origin, with relative URLs, as on the page `scene-agent serve` serves; on the MCP App page (mcpApp/main.ts), which
// a host shows in a sandboxed frame of its own origin, the origin of the viewer URL a tool result named, with
// absolute URLs (the frame may reach that origin only: mcp_server/app_view.py declares it).

let base: string | null = null;

/** The API server is at the origin of `url` (a viewer URL), not this page's: requests go there with absolute URLs,
 *  and this page's own address names no view (navigation/address.ts). */
export function setApiBase(url: string): void {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`not an http(s) address: ${url}`);
  base = parsed.origin;
}

/** The API server's origin. */
export function apiOrigin(): string {
  return base ?? window.location.origin;
}

/** Whether the API server is elsewhere than this page (setApiBase was called): the page is not the server's own. */
export function servedElsewhere(): boolean {
  return base !== null;
}

/** The URL to request for a path on the API server (`/api/…`, `/manifests/…`): relative on the server's own page. */
export function apiUrl(path: string): string {
  return base === null ? path : new URL(path, `${base}/`).href;
}

/** A path or an absolute URL on the API server as a path with its query; null when it is on another origin. */
export function apiPath(pathOrUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(pathOrUrl, `${apiOrigin()}/`);
  } catch {
    return null;
  }
  return url.origin === apiOrigin() ? url.pathname + url.search : null;
}
