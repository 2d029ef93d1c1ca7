// What the chat panel and the viewer know of each other: the chat opens views in place (a view-only
// view, or a selection session the agent is waiting on) from the viewer URLs the agent reports.
import { servedElsewhere } from "./apiBase";
import type { components } from "./generated/api";
import { addressHref } from "./viewer/navigation/address";
import type { SessionStatus } from "./viewer/data/api";

/** The camera in scene coordinates (metres, z up): where it is, the point it looks at and orbits, the direction
 *  that points up on the screen. Sent with each chat message, so that "on the left" means left on the screen. */
export type SceneCamera = components["schemas"]["Camera"];

/** What to show: the query parameters of a viewer URL. No manifest = the whole scene. */
export interface ViewTarget {
  manifest: string | null;
  selectionMode: boolean;
  sessionId: string | null;
  prompt: string | null;
}

/** What an answer is about, for the viewer to show when its run ends. */
export interface AnswerShown {
  /** The room and object codes it names (none: it is about nothing the viewer could frame). */
  codes: string[];
  /** The view it shows ("show me room 0-7"), or null. */
  manifest: string | null;
  /** The selection sessions its run asked for: its own pick, answered, may stay shown when it shows the codes. */
  sessions: string[];
}

/** The viewer as the chat panel sees it. */
export interface ViewerHandle {
  /** Switch to `target` in place (no page load); resolves when its points are shown or it failed. */
  open(target: ViewTarget): Promise<void>;
  /** The target shown now. */
  current(): ViewTarget;
  /** A selection session ended elsewhere (the agent timed out, the run was stopped, someone else picked):
   *  show that at once; for "confirmed", `codes` are what was picked. */
  sessionEnded(sessionId: string, status: Exclude<SessionStatus, "pending">, codes?: string[]): void;
  /** The camera as the user sees the scene now; null while nothing is shown. */
  camera(): SceneCamera | null;
  /** A run ended with `answer`: show what it is about (a pick still waiting is left alone; a finished one is left
   *  for the codes; codes already on screen are not moved away from). True when the viewer goes somewhere new. */
  follow(answer: AnswerShown): boolean;
  /** Frame one room or object of the scene (a code in an answer, clicked), in its room; resolves once shown. */
  frame(code: string): Promise<void>;
}

/** The target of a viewer URL (absolute, or relative to this page); its origin is ignored. */
export function parseViewerUrl(url: string): ViewTarget {
  const params = new URL(url, window.location.href).searchParams;
  return {
    manifest: params.get("manifest"),
    selectionMode: params.get("selectionMode") === "true",
    sessionId: params.get("sessionId"),
    prompt: params.get("prompt"),
  };
}

/** The target of this page's own URL. */
export function initialTarget(): ViewTarget {
  return parseViewerUrl(window.location.href);
}

/** This page's address for `target` (keeps ?lang), with the floor shown alone and the room looked inside, if any;
 *  on a page served from elsewhere (apiBase.ts), the absolute address of the API server's viewer page. */
export function targetUrl(target: ViewTarget, at: { floor?: string | null; room?: string | null } = {}): string {
  const url = new URL(addressHref());
  // a new place starts without the camera of the one before (navigation/cameraLink.ts writes its own)
  for (const name of ["manifest", "selectionMode", "sessionId", "prompt", "floor", "room", "camera"]) url.searchParams.delete(name);
  if (target.manifest) url.searchParams.set("manifest", target.manifest);
  if (target.selectionMode) url.searchParams.set("selectionMode", "true");
  if (target.sessionId) url.searchParams.set("sessionId", target.sessionId);
  if (target.prompt) url.searchParams.set("prompt", target.prompt);
  if (at.floor) url.searchParams.set("floor", at.floor);
  if (at.room) url.searchParams.set("room", at.room);
  return servedElsewhere() ? url.href : url.pathname + url.search;
}

/** The same view (a prompt changes nothing of what is shown). */
export function sameTarget(a: ViewTarget, b: ViewTarget): boolean {
  return a.manifest === b.manifest && a.selectionMode === b.selectionMode && a.sessionId === b.sessionId;
}

/** The whole scene, view-only. */
export const WHOLE_SCENE: ViewTarget = Object.freeze({ manifest: null, selectionMode: false, sessionId: null, prompt: null });
