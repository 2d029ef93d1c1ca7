// The events of one run over Server-Sent Events, exactly once each: the stream may drop at any time
// (the server closes it after a while, restarts, the network blips); we reconnect after the last
// id we saw and skip any id we already have.
import { apiOrigin, apiUrl } from "../apiBase";
import type { AgentEvent } from "./events";

export type StreamState = "connecting" | "open" | "reconnecting" | "closed";

export interface StreamHandlers {
  /** One new event, in order; `id` is its number in the run (1, 2, 3 …). */
  event(event: AgentEvent, id: number): void;
  /** The connection changed (for the "reconnecting…" notice). */
  state(state: StreamState): void;
  /** We gave up: the server no longer knows the run. */
  failed(message: string): void;
}

const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 4000;
const CHECK_AFTER_FAILURES = 3; // then ask the server whether the run still exists

export class RunStream {
  /** Ids of the events handed on, in order (a test hook: no gaps, no duplicates). */
  readonly received: number[] = [];
  /** How many times the stream was opened again after the first (a test hook). */
  reconnects = 0;
  private source: EventSource | null = null;
  private lastId = 0;
  private retryMs = FIRST_RETRY_MS;
  private failures = 0;
  private retryTimer: number | undefined;
  private closed = false;
  private paused = false;
  private opened = false;

  constructor(readonly runId: string, private readonly url: string, private readonly handlers: StreamHandlers) {}

  /** Open the stream. */
  start(): void {
    this.handlers.state("connecting");
    this.connect();
  }

  /** Stop listening for good (after `final`, or when the panel starts over). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    window.clearTimeout(this.retryTimer);
    this.source?.close();
    this.source = null;
    this.handlers.state("closed");
  }

  /** Drop the connection as a network failure would (test hook); with `hold`, stay away until `resume()`. */
  drop(hold = false): void {
    if (this.closed) return;
    this.paused = hold;
    this.lost();
  }

  /** Reconnect after `drop(true)`. */
  resume(): void {
    if (!this.paused || this.closed) return;
    this.paused = false;
    this.connect();
  }

  private connect(): void {
    window.clearTimeout(this.retryTimer);
    if (this.closed || this.paused) return;
    if (this.opened) this.reconnects += 1;
    this.opened = true;
    const url = new URL(this.url, `${apiOrigin()}/`);
    if (this.lastId > 0) url.searchParams.set("after", String(this.lastId));
    const source = new EventSource(apiUrl(url.pathname + url.search)); // the API server's (apiBase.ts)
    this.source = source;
    source.onopen = () => {
      if (source !== this.source) return;
      this.retryMs = FIRST_RETRY_MS;
      this.failures = 0;
      this.handlers.state("open");
    };
    source.onmessage = (message) => {
      if (source === this.source) this.receive(message);
    };
    source.addEventListener("end", () => {
      if (source === this.source) this.close();
    });
    source.onerror = () => {
      if (source === this.source) this.lost();
    };
  }

  private receive(message: MessageEvent<string>): void {
    const id = Number(message.lastEventId);
    if (Number.isInteger(id) && id > 0) {
      if (id <= this.lastId) return; // already handed on before a reconnect
      this.lastId = id;
    }
    let event: AgentEvent;
    try {
      event = JSON.parse(message.data) as AgentEvent;
    } catch {
      return; // not an event (never sent by our server); skipping it keeps the rest flowing
    }
    this.received.push(id);
    this.handlers.event(event, id);
    if (event.type === "final") this.close();
  }

  /** The connection is gone: close it ourselves (no browser retry without ?after) and come back later. */
  private lost(): void {
    this.source?.close();
    this.source = null;
    if (this.closed) return;
    this.handlers.state("reconnecting");
    if (this.paused) return;
    this.failures += 1;
    const delay = this.retryMs;
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    this.retryTimer = window.setTimeout(() => void this.retry(), delay);
  }

  private async retry(): Promise<void> {
    if (this.failures >= CHECK_AFTER_FAILURES && (await this.runIsGone())) {
      this.handlers.failed(`run ${this.runId} is unknown to the server`);
      this.close();
      return;
    }
    this.connect();
  }

  private async runIsGone(): Promise<boolean> {
    try {
      const response = await fetch(apiUrl(`/api/runs/${encodeURIComponent(this.runId)}`), {
        credentials: "same-origin", headers: { Accept: "application/json" },
      });
      return response.status === 404;
    } catch {
      return false; // the server is down: keep trying, it may come back
    }
  }
}
