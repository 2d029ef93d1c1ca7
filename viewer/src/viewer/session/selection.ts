// The user's picks in a selection session, and the session's clock: polled from the server while it is
// pending, so that a session ended elsewhere (timeout, the agent stopped, another window) shows at once.

import { ApiError, getSession, type SessionState, type SessionStatus } from "../data/api";

/** How a session ended for this viewer: its final status, or "abandoned" when nobody waits for the pick any more. */
export type SessionEnd = Exclude<SessionStatus, "pending"> | "abandoned";

/** Picks in the order they were made (Undo takes back the last); one at a time unless `multiple`. */
export class Picks {
  private order: string[] = [];
  private history: string[][] = [];

  constructor(readonly candidates: readonly string[], readonly multiple: boolean) {}

  get selected(): string[] {
    return [...this.order];
  }

  has(code: string): boolean {
    return this.order.includes(code);
  }

  /** Pick or unpick a candidate; a new pick replaces the old one when only one is allowed. */
  toggle(code: string): boolean {
    if (!this.candidates.includes(code)) return false;
    this.history.push(this.order);
    if (this.has(code)) this.order = this.order.filter((c) => c !== code);
    else this.order = this.multiple ? [...this.order, code] : [code];
    return true;
  }

  /** Take back the last change. */
  undo(): boolean {
    const previous = this.history.pop();
    if (!previous) return false;
    this.order = previous;
    return true;
  }

  get canUndo(): boolean {
    return this.history.length > 0;
  }
}

export const POLL_MS = 2000;

/**
 * Seconds left, counted locally between polls (each poll re-syncs with the server's seconds_left, so
 * the browser's clock never matters); `onEnd` once when the session is no longer pending.
 */
export class SessionClock {
  private deadline = 0;
  private pollTimer = 0;
  private tickTimer = 0;
  private stopped = false;
  private polling = false;

  constructor(
    private readonly sessionId: string,
    private readonly onTick: (secondsLeft: number) => void,
    private readonly onEnd: (status: SessionEnd, codes: string[], by: SessionState["answered_by"]) => void,
    private readonly onContact: (ok: boolean) => void,
  ) {}

  /** Start from a session state just read from the server. */
  start(state: SessionState): void {
    this.sync(state);
    if (this.stopped) return;
    this.pollTimer = window.setInterval(() => void this.poll(), POLL_MS);
    this.tickTimer = window.setInterval(() => this.tick(), 250);
  }

  /** A session state just read from the server (after "More time", say): its seconds left count from now. */
  update(state: SessionState): void {
    if (!this.stopped) this.sync(state);
  }

  private sync(state: SessionState): void {
    if (state.status !== "pending") {
      this.end(state.status, (state.selections ?? []).map((pick) => pick.itemCode), state.answered_by);
      return;
    }
    if (state.waiting === false) {
      this.end("abandoned"); // the program that asked has stopped: a pick would reach nobody
      return;
    }
    this.deadline = performance.now() + state.seconds_left * 1000;
    this.tick();
  }

  private tick(): void {
    if (this.stopped) return;
    const left = Math.max(0, (this.deadline - performance.now()) / 1000);
    this.onTick(left);
    if (left <= 0) this.end("expired");
  }

  private async poll(): Promise<void> {
    if (this.stopped || this.polling) return;
    this.polling = true;
    try {
      const state = await getSession(this.sessionId);
      this.onContact(true);
      if (!this.stopped) this.sync(state);
    } catch (exc) {
      // A session that vanished has ended for this viewer; anything else may pass (the server restarting).
      if (exc instanceof ApiError && exc.kind === "http" && exc.status === 404) this.end("expired");
      else this.onContact(false);
    } finally {
      this.polling = false;
    }
  }

  /** Read the server's status now (after a refused answer, say). */
  async refresh(): Promise<SessionStatus | null> {
    try {
      const state = await getSession(this.sessionId);
      if (!this.stopped) this.sync(state);
      return state.status;
    } catch {
      return null;
    }
  }

  private end(status: SessionEnd, codes: string[] = [], by: SessionState["answered_by"] = null): void {
    if (this.stopped) return;
    this.stop();
    this.onEnd(status, codes, by);
  }

  stop(): void {
    this.stopped = true;
    window.clearInterval(this.pollTimer);
    window.clearInterval(this.tickTimer);
  }
}
