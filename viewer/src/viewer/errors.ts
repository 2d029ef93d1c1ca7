// The one place where failures become sentences people can act on (in the current language).

import { ApiError } from "./api";
import { t } from "./strings";

/** What to say when loading a view failed; `what` names the thing that was being read. */
export function loadErrorMessage(error: unknown, what: string): string {
  if (error instanceof ApiError) {
    if (error.kind === "network") return t("errNetwork");
    if (error.kind === "data") return t("errData", { what, message: error.serverMessage });
    if (error.status === 404 && error.url.startsWith("/manifests/")) return t("errViewMissing", { message: error.serverMessage });
    if (error.status === 404 && error.url.startsWith("/api/sessions/")) return t("errSessionMissing", { message: error.serverMessage });
    return t("errHttp", { status: error.status, message: error.serverMessage });
  }
  if (error instanceof WebGLUnavailable) return t("errWebgl");
  return t("errData", { what, message: error instanceof Error ? error.message : String(error) });
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
    return t("errHttp", { status: error.status, message });
  }
  return t("errSubmitNetwork");
}

export class WebGLUnavailable extends Error {}
