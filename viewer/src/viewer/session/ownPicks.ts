// The picks this tab confirmed, by session id (sessionStorage: this tab's history only). Going Back to a pick you
// made then says "you picked …", not "answered elsewhere".

const KEY = "scene-agent:own-picks";
const KEEP = 50; // the latest sessions remembered

function read(): Record<string, string[]> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, string[]>) : {};
  } catch {
    return {};
  }
}

/** Remember that this tab confirmed `codes` for the session. */
export function rememberOwnPick(sessionId: string, codes: string[]): void {
  const picks = read();
  delete picks[sessionId];
  picks[sessionId] = codes;
  const kept = Object.entries(picks).slice(-KEEP);
  try {
    sessionStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // storage full or refused: the pick is then told as made elsewhere
  }
}

/** Whether this tab confirmed exactly `codes` for the session. */
export function isOwnPick(sessionId: string, codes: string[]): boolean {
  const mine = read()[sessionId];
  return Array.isArray(mine) && mine.length === codes.length && mine.every((code, i) => code === codes[i]);
}
