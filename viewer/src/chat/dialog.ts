// Question dialogs: the agent's `question` batch in one dialog over the panel, one question
// at a time with a stepper (1/3, Back/Next), numbered options (radio, or checkboxes when `multiple`),
// free text when allowed, Submit, and Cancel that keeps the answers given so far. One dialog at a
// time: later questions wait in a queue; a dialog closes when its question ends elsewhere.
import type { QuestionEvent, QuestionItem } from "./events";
import { timeOf } from "./events";
import { ApiError, answerQuestion, cancelQuestion, type AnswerBody } from "./api";
import { Ticker, bindText, formatClock, h, tx } from "./dom";
import { t } from "./strings";

interface Draft {
  selected: Set<number>;
  text: string;
}

function answered(draft: Draft): boolean {
  return draft.selected.size > 0 || draft.text.trim() !== "";
}

function bodyOf(index: number, draft: Draft): AnswerBody {
  const body: AnswerBody = { question_index: index };
  if (draft.selected.size) body.selected = [...draft.selected].sort((a, b) => a - b);
  if (draft.text.trim()) body.text = draft.text.trim();
  return body;
}

class Dialog {
  readonly el: HTMLElement;
  closed = false;
  private step = 0;
  private busy = false;
  private readonly drafts: Draft[];
  private readonly body = h("div", { class: "q-body" });
  private readonly stepper = h("div", { class: "q-stepper" });
  private readonly error = h("div", { class: "q-error", role: "alert", "data-testid": "question-error", hidden: true });
  private readonly waiting = h("div", { class: "q-waiting", "data-testid": "question-waiting" });
  private readonly back = tx(h("button", { type: "button", "data-testid": "question-back" }), "q.back");
  private readonly next = tx(h("button", { type: "button", class: "primary", "data-testid": "question-next" }), "q.next");
  private readonly submit = tx(h("button", { type: "button", class: "primary", "data-testid": "question-submit" }), "q.submit");
  private readonly cancel = tx(h("button", { type: "button", "data-testid": "question-cancel" }), "q.cancel");

  constructor(readonly event: QuestionEvent, ticker: Ticker, private readonly onClose: () => void) {
    this.drafts = event.questions.map(() => ({ selected: new Set<number>(), text: "" }));
    const left = h("span", { class: "q-left", "data-testid": "question-countdown" });
    const box = h("div", { class: "q-box" },
      h("div", { class: "q-top" }, tx(h("span", { class: "q-title", id: `q-title-${event.question_id}` }), "q.title"), left),
      this.stepper, this.body, this.error,
      h("div", { class: "q-actions" }, this.cancel, h("span", { class: "q-spacer" }), this.back, this.next, this.submit),
      this.waiting);
    this.el = h("div", { class: "q-overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": `q-title-${event.question_id}`,
                         "data-testid": "question-dialog", "data-question-id": event.question_id }, box);
    this.back.addEventListener("click", () => this.go(this.step - 1));
    this.next.addEventListener("click", () => this.forward());
    this.submit.addEventListener("click", () => void this.send());
    this.cancel.addEventListener("click", () => void this.send(true));
    this.el.addEventListener("keydown", (e) => this.key(e));
    const stamp = timeOf(event.ts);
    const deadline = (Number.isFinite(stamp) ? Math.min(stamp, Date.now()) : Date.now()) + event.timeout * 1000;
    ticker.add(() => {
      if (this.closed) return false;
      const clock = formatClock((deadline - Date.now()) / 1000);
      bindText(left, () => t("q.left", { left: clock }));
      return true;
    });
    this.render();
  }

  /** How many other dialogs wait behind this one. */
  setWaiting(n: number): void {
    this.waiting.hidden = n === 0;
    if (n) tx(this.waiting, "q.waiting", { n });
  }

  focus(): void {
    this.body.querySelector<HTMLElement>("input, textarea")?.focus();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.el.remove();
    this.onClose();
  }

  private get item(): QuestionItem {
    return this.event.questions[this.step];
  }

  private render(): void {
    const total = this.event.questions.length;
    const item = this.item;
    const draft = this.drafts[this.step];
    this.el.dataset.step = String(this.step + 1);
    this.el.dataset.steps = String(total);
    this.stepper.replaceChildren(
      tx(h("span", { "data-testid": "question-step" }), "q.step", { n: this.step + 1, total }),
      h("span", { class: "q-dots", "aria-hidden": "true" },
        ...this.event.questions.map((_, i) => h("span", { class: `q-dot${i === this.step ? " current" : ""}${answered(this.drafts[i]) ? " done" : ""}` }))));
    this.stepper.hidden = total === 1;
    const options = item.options ?? [];
    const name = `q-${this.event.question_id}-${this.step}`;
    const list = h("div", { class: "q-options", role: item.multiple ? "group" : "radiogroup" },
      ...options.map((option, i) => {
        const input = h("input", { type: item.multiple ? "checkbox" : "radio", name, value: String(i), "data-testid": "question-option-input" });
        input.checked = draft.selected.has(i);
        input.addEventListener("change", () => this.choose(i, input.checked));
        return h("label", { class: "q-option", "data-testid": "question-option", "data-index": String(i) },
          input, h("span", { class: "q-num" }, String(i + 1)), h("span", { class: "q-option-text" }, option));
      }));
    const freeText = item.allow_free_text ?? options.length === 0;
    let free: HTMLElement | null = null;
    if (freeText) {
      const area = h("textarea", { rows: "2", "data-testid": "question-text" });
      area.value = draft.text;
      area.addEventListener("input", () => this.type(area.value));
      free = h("label", { class: "q-free" }, tx(h("span"), options.length ? "q.own_words" : "q.free"), area);
    }
    const parts = [
      h("div", { class: "q-header", "data-testid": "question-header" }, item.header),
      h("div", { class: "q-question", "data-testid": "question-question" }, item.question),
      options.length ? tx(h("div", { class: "q-hint" }), item.multiple ? "q.choose_many" : "q.choose_one") : null,
      options.length ? list : null,
      free,
    ];
    this.body.replaceChildren(...parts.filter((part): part is HTMLElement => part !== null));
    const last = this.step === total - 1;
    this.back.hidden = total === 1;
    this.back.disabled = this.busy || this.step === 0;
    this.next.hidden = last;
    this.submit.hidden = !last;
    for (const button of [this.next, this.submit, this.cancel]) button.disabled = this.busy;
    if (this.busy) tx(this.submit, "q.sending"); else tx(this.submit, "q.submit");
  }

  private choose(index: number, on: boolean): void {
    const draft = this.drafts[this.step];
    if (!this.item.multiple) {
      draft.selected.clear();
      if (on) draft.text = ""; // one answer: an option or own words, whichever came last
    }
    if (on) draft.selected.add(index); else draft.selected.delete(index);
    this.showError(null);
    this.render();
    this.body.querySelector<HTMLInputElement>(`input[value="${index}"]`)?.focus();
  }

  private type(text: string): void {
    const draft = this.drafts[this.step];
    draft.text = text;
    if (!this.item.multiple && text.trim()) {
      draft.selected.clear();
      for (const input of this.body.querySelectorAll<HTMLInputElement>("input[type=radio]")) input.checked = false;
    }
    this.showError(null);
  }

  private go(step: number): void {
    if (step < 0 || step >= this.event.questions.length) return;
    this.step = step;
    this.showError(null);
    this.render();
    this.focus();
  }

  private forward(): void {
    if (!answered(this.drafts[this.step])) return this.showError(() => t("q.need_answer"));
    this.go(this.step + 1);
  }

  private async send(cancelling = false): Promise<void> {
    if (this.busy || this.closed) return;
    const missing = this.drafts.findIndex((d) => !answered(d));
    if (!cancelling && missing >= 0) {
      this.go(missing);
      return this.showError(() => t("q.need_answer"));
    }
    const answers = this.drafts.map((d, i) => [i, d] as const).filter(([, d]) => answered(d)).map(([i, d]) => bodyOf(i, d));
    this.busy = true;
    this.render();
    try {
      await (cancelling ? cancelQuestion : answerQuestion)(this.event.question_id, answers);
      this.close();
    } catch (error) {
      this.busy = false;
      this.render();
      // 404/409: the question already ended (timed out, stopped); nothing left to answer here
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) return this.close();
      const message = error instanceof ApiError ? error.serverMessage : error instanceof Error ? error.message : String(error);
      this.showError(() => message);
    }
  }

  private showError(text: (() => string) | null): void {
    if (text) bindText(this.error, text); else this.error.textContent = "";
    this.error.hidden = !text;
  }

  private key(e: KeyboardEvent): void {
    const inText = e.target instanceof HTMLTextAreaElement;
    if (e.key === "Escape") {
      e.preventDefault();
      void this.send(true);
    } else if (e.key === "Enter" && !e.shiftKey && !(e.target instanceof HTMLButtonElement)) {
      e.preventDefault();
      if (this.step === this.event.questions.length - 1) void this.send(); else this.forward();
    } else if (!inText && /^[1-9]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const index = Number(e.key) - 1;
      if (index < (this.item.options ?? []).length) {
        e.preventDefault();
        this.choose(index, this.item.multiple ? !this.drafts[this.step].selected.has(index) : true);
      }
    }
  }
}

/** One dialog in front, the rest queued in arrival order. */
export class QuestionDesk {
  private shown: Dialog | null = null;
  private readonly queue: QuestionEvent[] = [];

  constructor(private readonly host: HTMLElement, private readonly ticker: Ticker, private readonly changed: () => void) {}

  /** True while a dialog is shown (the run waits on the user). */
  get open(): boolean {
    return this.shown !== null;
  }

  ask(event: QuestionEvent): void {
    if (this.shown?.event.question_id === event.question_id || this.queue.some((q) => q.question_id === event.question_id)) return;
    this.queue.push(event);
    if (!this.shown) this.showNext(); else this.shown.setWaiting(this.queue.length);
  }

  /** The question ended (answered here, timed out, stopped): close or unqueue it. */
  ended(questionId: string): void {
    if (this.shown?.event.question_id === questionId) {
      this.shown.close();
      return;
    }
    const index = this.queue.findIndex((q) => q.question_id === questionId);
    if (index >= 0) this.queue.splice(index, 1);
    this.shown?.setWaiting(this.queue.length);
  }

  /** Close everything (the run is over). */
  clear(): void {
    this.queue.length = 0;
    this.shown?.close();
  }

  private showNext(): void {
    const next = this.queue.shift();
    this.shown = null;
    if (next) {
      const dialog = new Dialog(next, this.ticker, () => {
        if (this.shown === dialog) this.showNext();
      });
      this.shown = dialog;
      dialog.setWaiting(this.queue.length);
      this.host.append(dialog.el);
      dialog.focus();
    }
    this.changed();
  }
}
