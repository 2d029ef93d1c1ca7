// The one place where failures become sentences people can act on (in the current language). What a link or a
// load failure says is ours, never the server's raw text: the server's message is kept for the console only.

import { apiOrigin } from "../apiBase";
import type { ViewTarget } from "../contracts";
import { ApiError } from "./data/api";
import { BadLink } from "./data/links";
import { NoScene, PointsError } from "./data/loader";
import { itemTitle } from "./data/model";
import { t } from "./strings";

/** The server did not answer at all (stopped, restarting, the network away): worth trying again until it does. */
export function serverAway(error: unknown): boolean {
  return error instanceof ApiError && error.kind === "network";
}

/** What to say when loading a view failed; `what` names the thing that was being read, `selection` whether the
 *  link was a pick's. */
export function loadErrorMessage(error: unknown, what: string, selection: boolean): string {
  if (error instanceof BadLink) return t(error.part === "session" ? "errBadSession" : "errBadLink");
  if (error instanceof ApiError) {
    if (error.kind === "network") return t("errOffline", { origin: apiOrigin() });
    if (error.kind === "data") return t("errData", { what, message: error.serverMessage });
    const missing = error.status === 404 || error.status === 400;
    if (missing && error.url.startsWith("/api/sessions/")) return t("errSessionMissing");
    if (missing && error.url.startsWith("/manifests/")) return t(selection ? "errSessionMissing" : "errViewMissing");
    return t("errHttp", { status: error.status });
  }
  if (error instanceof WebGLUnavailable) return t("errWebgl");
  return t("errData", { what, message: error instanceof Error ? error.message : String(error) });
}

/** A failed load in words: what to say, whether the server did not answer at all (then it is retried), and whether
 *  a reload may help (not for a broken link, or a view or pick the server does not know). */
export function describeFailure(exc: unknown, target: ViewTarget): { text: () => string; away: boolean; reload: boolean } {
  if (exc instanceof NoScene) return { text: () => t("errNoScene"), away: false, reload: true };
  const what = exc instanceof PointsError ? itemTitle(exc.item) : target.manifest ?? t("wholeScene");
  const reason = exc instanceof PointsError ? exc.reason : exc;
  const selection = target.selectionMode || target.sessionId !== null;
  const unknown = reason instanceof ApiError && reason.kind === "http" && (reason.status === 404 || reason.status === 400);
  const away = serverAway(reason); // tried again by itself: no Reload needed
  return { text: () => loadErrorMessage(reason, what, selection), away, reload: !away && !(reason instanceof BadLink) && !unknown };
}

/** What to say when Confirm or Cancel was refused; the server's message says the specifics. */
export function answerErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.kind === "http") {
    const message = error.serverMessage;
    if (error.status === 404) return t("errSubmit404", { message });
    if (error.status === 409) return t("errSubmit409", { message });
    if (error.status === 410) return t("errSubmit410", { message });
    if (error.status === 422) return t("errSubmit422", { message });
    if (error.status === 503 && error.code === "selection_not_delivered") return t("errNotDelivered");
    return t("errSubmitHttp", { status: error.status, message });
  }
  return t("errSubmitNetwork");
}

/** What to say when "More time" was refused. */
export function extendErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.kind === "http") {
    if (error.status === 409) return t("errMoreTime409");
    if (error.status === 410 && error.code === "nobody_waiting") return t("nobodyWaiting");
    if (error.status === 410) return t("errMoreTime410");
    if (error.status === 422) return t("errMoreTime422");
    if (error.status === 404) return t("errSessionMissing");
    return t("errSubmitHttp", { status: error.status, message: error.serverMessage });
  }
  return t("errSubmitNetwork");
}

export class WebGLUnavailable extends Error {}
