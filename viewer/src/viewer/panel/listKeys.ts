// The keys of a list of rows: ↑/↓, Home and End move between the rows shown (the filter's), → looks inside a room.

/** Act on `e` if it is one of the list's keys; `rows` are the rows shown, `lookInside(code)` says whether a row's
 *  room could be looked inside (and did it). */
export function listKey(e: KeyboardEvent, rows: HTMLLIElement[], lookInside: (code: string) => boolean): void {
  const at = rows.indexOf(document.activeElement as HTMLLIElement);
  if (at < 0) return;
  const move = (to: number) => {
    e.preventDefault();
    rows[(to + rows.length) % rows.length].focus();
  };
  if (e.key === "ArrowDown") move(at + 1);
  else if (e.key === "ArrowUp") move(at - 1);
  else if (e.key === "Home") move(0);
  else if (e.key === "End") move(rows.length - 1);
  else if (e.key === "ArrowRight") {
    const code = rows[at].dataset.code ?? rows[at].dataset.item;
    if (code && lookInside(code)) e.preventDefault();
  }
}
