// After a reload: the tab's conversation shown again, each finished turn as the user saw it — the message,
// the cards its run showed (kept in this tab, runLog.ts), then the answer as the server keeps it — without
// opening or ending anything in the viewer.
import type { ConversationState } from "./api";
import { Ticker } from "./dom";
import { keptRuns, pairTurns } from "./runLog";
import { RunView } from "./runView";
import { Transcript, isFinalStatus } from "./transcript";

export function showPastTurns(state: ConversationState, keptFor: string, transcript: Transcript, ticker: Ticker): void {
  const kept = pairTurns(state.turns, keptRuns(keptFor));
  state.turns.forEach((turn, i) => {
    transcript.user(turn.query);
    const past = new RunView(transcript, ticker, null);
    for (const event of kept[i]?.events ?? []) if (event.type !== "final") past.show(event);
    past.settle();
    const status = isFinalStatus(turn.status) ? turn.status : "error";
    past.final({ type: "final", ts: "", status, answer: turn.answer, codes: turn.codes });
  });
}
