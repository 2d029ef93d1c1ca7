// The line under the viewer on the MCP App page: what the tool call came to (ask's answer, in its own words), that
// the result is still on its way, or that the call was cancelled — so that the person sees the outcome in the frame
// too. Hidden while a pick is shown with nothing to add (the viewer's panel says what to pick).

import { defineStrings, langOf, onLangChange } from "../i18n";

const t = defineStrings({
  en: {
    waiting: "Waiting for the result…",
    cancelled: "The call was cancelled.",
    cancelledWhy: "The call was cancelled: {reason}",
    badUrl: "This viewer address cannot be opened here: {url}",
  },
  zh: {
    waiting: "正在等待结果…",
    cancelled: "调用已取消。",
    cancelledWhy: "调用已取消：{reason}",
    badUrl: "无法在此打开这个查看器地址：{url}",
  },
});

/** How the line reads: on its way, an answer (by ask's status), cancelled, or a failure. */
export type OutcomeTone = "pending" | "answered" | "nothing" | "cancelled" | "error";

const TONES: Record<string, OutcomeTone> = { answered: "answered", error: "error", cancelled: "cancelled" };

export class Outcome {
  private said: (() => string) | null = null;

  constructor(private readonly el: HTMLElement) {
    onLangChange(() => this.render());
    this.pending();
  }

  /** Nothing yet: the result is on its way. */
  pending(): void {
    this.set("pending", () => t("waiting"));
  }

  /** ask's answer (its status: answered, not_found, cancelled, timeout, error), in its own words. */
  answer(text: string, status: string): void {
    this.set(TONES[status] ?? "nothing", () => text, status);
  }

  cancelled(reason?: string): void {
    this.set("cancelled", () => (reason ? t("cancelledWhy", { reason }) : t("cancelled")));
  }

  badUrl(url: string): void {
    this.set("error", () => t("badUrl", { url }));
  }

  /** Nothing to say (a pick or a view is shown, and the viewer says what it is). */
  hide(): void {
    this.said = null;
    this.el.hidden = true;
    delete this.el.dataset.tone;
    delete this.el.dataset.status;
  }

  private set(tone: OutcomeTone, said: () => string, status?: string): void {
    this.said = said;
    this.el.hidden = false;
    this.el.dataset.tone = tone;
    if (status) this.el.dataset.status = status;
    else delete this.el.dataset.status;
    this.render();
  }

  private render(): void {
    if (!this.said) return;
    const text = this.said();
    this.el.textContent = text;
    const lang = langOf(text);
    if (lang) this.el.lang = lang;
    else this.el.removeAttribute("lang");
  }
}
