// Trying again while the server does not answer: after 1 s, then twice as long each time, at most 8 s apart,
// until it answers (the caller's next load succeeds, or fails otherwise) or something else is shown.

const FIRST_MS = 1000;
const MAX_MS = 8000;

export class RetryClock {
  private delay = FIRST_MS;
  private timer = 0;

  /** Call `again` after the next delay (each call waits longer than the last). */
  after(again: () => void): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(again, this.delay);
    this.delay = Math.min(MAX_MS, this.delay * 2);
  }

  /** A load started: no retry pending. */
  cancel(): void {
    window.clearTimeout(this.timer);
    this.timer = 0;
  }

  /** The server answered: the next trouble starts again from the shortest delay. */
  reset(): void {
    this.delay = FIRST_MS;
  }
}
