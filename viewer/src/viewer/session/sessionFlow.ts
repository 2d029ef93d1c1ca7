// One selection session in the viewer: the picks, the countdown and "More time", Confirm and Cancel (one
// request in flight; refused answers explained with the server's message), Escape that asks before it
// cancels, and the end of the session however it comes — sent from here, cancelled, expired, or ended
// elsewhere (another window, the agent).

import { ApiError, cancelSelection, extendSelection, getSession, submitSelection, type SessionState } from "../data/api";
import { answerErrorMessage, extendErrorMessage } from "../errors";
import type { ViewerState } from "../app/store";
import type { SelectionSpec } from "../data/model";
import type { Panel } from "../panel/panel";
import { isOwnPick, rememberOwnPick } from "./ownPicks";
import { Picks, SessionClock, type SessionEnd } from "./selection";
import { t } from "../strings";

type Ended = SessionEnd;
const FINAL: Record<Ended, ViewerState> = { confirmed: "submitted", cancelled: "cancelled", expired: "expired", abandoned: "abandoned" };
// How long the Escape question waits for a second Escape (or an answer) before it goes away by itself.
const ESCAPE_ASK_MS = 5000;
// What one press of "More time" adds (the server takes at most 600 s at a time, 3600 s in all).
const MORE_TIME_S = 60;
// A 503 (the server busy, its store away or recovering, a pick not delivered) is sent again by itself, after
// 0.5 s, 1 s, 2 s, then every 4 s, for as long as the session lasts; the person is told each time.
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 4000;

function sameCodes(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");
}

export class SessionFlow {
  readonly sessionId: string;
  private picks: Picks;
  private clock: SessionClock | null = null;
  private busy: "sending" | "cancelling" | null = null;
  private state: ViewerState = "loading";
  private endedWhileBusy: Ended | null = null;
  private contactLost = false;
  private retrying = false; // an answer is being sent again after a 503 (its message stays up)
  private extending = false;
  private escapeTimer = 0;
  /** What was picked when the session was confirmed elsewhere (another window, the API). */
  private pickedElsewhere: string[] | null = null;

  constructor(
    private readonly spec: SelectionSpec,
    private readonly panel: Panel,
    private readonly on: { state(state: ViewerState): void; changed(): void },
  ) {
    this.sessionId = spec.sessionId;
    this.picks = new Picks(spec.candidates, spec.multiple);
    this.update();
  }

  get selected(): string[] {
    return this.pickedElsewhere ?? this.picks.selected;
  }

  /** The session as the server reported it when the view finished loading. */
  start(session: SessionState): void {
    if (session.status === "expired" || session.status === "cancelled") {
      // Over before the page opened: nothing to pick, so a card says why instead of candidates and buttons.
      const status = session.status;
      this.panel.showCard(status, () => t(status === "expired" ? "expiredAtLoad" : "cancelledAtLoad"));
      this.setState(status);
      this.on.changed();
      return;
    }
    if (session.multiple !== this.spec.multiple) this.picks = new Picks(this.spec.candidates, session.multiple);
    const prompt = this.spec.prompt || session.prompt;
    this.panel.setPrompt(prompt ? () => prompt : null, () => t(session.multiple ? "pickSeveral" : "pickOne"));
    this.setState("ready");
    this.clock = new SessionClock(this.sessionId, (left) => this.panel.setCountdown(left), (status, codes, by) => this.ended(status, codes, by),
                                  (ok) => this.contact(ok));
    this.clock.start(session);
  }

  toggle(code: string): void {
    if (this.state !== "ready" || this.busy || !this.picks.toggle(code)) return;
    this.clearError();
    this.update();
    this.on.changed();
  }

  undo(): void {
    if (this.state !== "ready" || this.busy || !this.picks.undo()) return;
    this.clearError();
    this.update();
    this.on.changed();
  }

  async confirm(): Promise<void> {
    if (this.state !== "ready" || this.busy) return;
    const codes = this.picks.selected;
    if (!codes.length) {
      this.panel.setMessage(() => t("pickFirst"), "error");
      return;
    }
    await this.answer("sending", async () => {
      await submitSelection(this.sessionId, codes);
      rememberOwnPick(this.sessionId, codes);
    }, "submitted", () => t("sent", { codes: codes.join(", ") }), codes);
  }

  async cancel(): Promise<void> {
    if (this.state !== "ready" || this.busy) return;
    this.dismissEscape();
    await this.answer("cancelling", () => cancelSelection(this.sessionId), "cancelled", () => t("cancelled"));
  }

  /** Escape: the first asks "Cancel this pick?"; a second one while it asks (or "Yes, cancel") cancels. */
  escape(): void {
    if (this.state !== "ready" || this.busy) return;
    if (this.panel.escapeAsked) {
      void this.cancel();
      return;
    }
    this.panel.askEscape(true);
    window.clearTimeout(this.escapeTimer);
    this.escapeTimer = window.setTimeout(() => this.dismissEscape(), ESCAPE_ASK_MS);
  }

  /** The Escape question goes away (answered "Keep picking", timed out, or the session moved on). */
  dismissEscape(): void {
    window.clearTimeout(this.escapeTimer);
    if (this.panel.escapeAsked) this.panel.askEscape(false);
  }

  /** "More time": the server moves the deadline; the countdown follows its answer. */
  async extend(): Promise<void> {
    if (this.state !== "ready" || this.busy || this.extending || !this.clock) return;
    this.extending = true;
    this.update();
    try {
      const state = await extendSelection(this.sessionId, MORE_TIME_S);
      this.clock.update(state);
      if (this.state === "ready") {
        const seconds = Math.ceil(state.seconds_left);
        this.panel.setMessage(() => t("moreTimeAdded", { seconds }), "ok");
      }
    } catch (exc) {
      if (this.state !== "ready") return; // the session ended meanwhile, and said so
      const message = () => extendErrorMessage(exc);
      const refused = exc instanceof ApiError && exc.kind === "http" ? exc : null;
      if (refused?.status === 410 && refused.code === "nobody_waiting") this.finish("abandoned", message, "error");
      else if (refused?.status === 410) this.finish("expired", message, "error");
      else if (refused?.status === 409 || refused?.status === 404) {
        const now = refused.status === 409 ? await this.clock?.refresh() : null;
        if (this.state === "ready") this.finish(now && now !== "pending" ? FINAL[now] : "error", message, "error");
      } else this.panel.setMessage(message, "error"); // 422 (an hour at most) or no answer: the pick goes on
    } finally {
      this.extending = false;
      this.update();
    }
  }

  private async answer(busy: "sending" | "cancelling", send: () => Promise<unknown>, done: ViewerState, said: () => string,
                       codes: string[] = []): Promise<void> {
    this.busy = busy; // set before the request leaves: a second click or key press finds it busy
    this.panel.setMessage(null);
    this.setState("submitting"); // an answer is on its way (Confirm or Cancel)
    for (let attempt = 1; ; attempt++) {
      try {
        await send();
        this.retrying = false;
        this.finish(done, said, done === "submitted" ? "ok" : "info");
        return;
      } catch (exc) {
        const status = exc instanceof ApiError && exc.kind === "http" ? exc.status : 0;
        if (status === 503 && !this.endedWhileBusy && this.state === "submitting" && (await this.pause(attempt))) continue;
        this.retrying = false;
        // Sent again after a 503 whose reply was lost, the first may have been recorded after all: a 409 then says so.
        if (status === 409 && attempt > 1 && busy === "sending" && (await this.recordedAs(codes))) {
          rememberOwnPick(this.sessionId, codes);
          this.finish(done, said, "ok");
          return;
        }
        await this.refused(exc, status);
        return;
      }
    }
  }

  /** Wait before sending again after the n-th 503, saying so; false when the session ended meanwhile. */
  private async pause(attempt: number): Promise<boolean> {
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (attempt - 1));
    this.retrying = true;
    this.panel.setMessage(() => t("retrying", { seconds: Math.ceil(delay / 1000), attempt }), "info");
    await new Promise((resolve) => window.setTimeout(resolve, delay));
    return !this.endedWhileBusy && this.state === "submitting";
  }

  /** Whether the session is confirmed with these very picks (an earlier send of this page went through). */
  private async recordedAs(codes: string[]): Promise<boolean> {
    try {
      const state = await getSession(this.sessionId);
      return state.status === "confirmed" && sameCodes((state.selections ?? []).map((pick) => pick.itemCode), codes);
    } catch {
      return false;
    }
  }

  /** What a refused answer means for the session (ended, or the user may try again), said. */
  private async refused(exc: unknown, status: number): Promise<void> {
    this.busy = null;
    const message = () => answerErrorMessage(exc);
    if (status === 410 && exc instanceof ApiError && exc.code === "nobody_waiting") this.finish("abandoned", () => t("nobodyWaiting"), "error");
    else if (status === 410) this.finish("expired", message, "error");
    else if (status === 409) {
      const now = this.endedWhileBusy ?? (await this.clock?.refresh()) ?? null;
      this.finish(now && now !== "pending" ? FINAL[now] : "error", message, "error");
    } else if (status === 404) this.finish("error", message, "error");
    else if (this.endedWhileBusy) this.ended(this.endedWhileBusy);
    else {
      this.setState("ready"); // refused picks (422) or no answer: the user may try again
      this.panel.setMessage(message, "error");
    }
  }

  /** The session ended without this viewer answering it (or its answer raced a poll, or it was answered from this tab
   *  before, and the user came Back to it); `codes`: what was picked, `by`: where. */
  ended(status: Ended, codes: string[] = [], by: SessionState["answered_by"] = null): void {
    if (this.busy) {
      this.endedWhileBusy = status;
      return;
    }
    if (this.state !== "ready" && this.state !== "loading") return;
    if (status === "confirmed" && codes.length) {
      this.pickedElsewhere = codes;
      const listed = { codes: codes.join(", ") };
      const said = isOwnPick(this.sessionId, codes) ? "youPicked" : by === "words" ? "youPickedInWords" : "pickedElsewhere";
      this.finish("submitted", () => t(said, listed), said === "pickedElsewhere" ? "info" : "ok");
      return;
    }
    const said = { confirmed: "answeredElsewhere", cancelled: "cancelledElsewhere", expired: "expired", abandoned: "nobodyWaiting" } as const;
    this.finish(FINAL[status], () => t(said[status]), status === "expired" || status === "abandoned" ? "error" : "info");
  }

  private finish(state: ViewerState, message: () => string, tone: "info" | "ok" | "error"): void {
    this.clock?.stop();
    this.dismissEscape();
    this.busy = null;
    this.setState(state);
    this.panel.setCountdown(null);
    this.panel.setMessage(message, tone);
    this.on.changed();
  }

  private contact(ok: boolean): void {
    if (ok === !this.contactLost) return;
    this.contactLost = !ok;
    if (this.retrying) return; // the retry's own message says what is going on
    if (!ok) this.panel.setMessage(() => t("errPollLost"), "error");
    else this.panel.setMessage(null);
  }

  private clearError(): void {
    if (this.state === "ready") this.panel.setMessage(null);
  }

  private setState(state: ViewerState): void {
    this.state = state;
    this.on.state(state);
    this.update();
  }

  /** Buttons and the picked line follow the state. */
  private update(): void {
    const ready = this.state === "ready" && !this.busy;
    const selected = this.selected;
    this.panel.setActions({ confirm: ready && selected.length > 0, cancel: ready, undo: ready && this.picks.canUndo }, this.busy);
    this.panel.setMoreTime(ready, this.extending);
    this.panel.setPicked(() => (selected.length ? t("picked", { codes: selected.join(", ") }) : t("nothingPicked")));
  }

  stop(): void {
    this.clock?.stop();
    window.clearTimeout(this.escapeTimer);
  }
}
