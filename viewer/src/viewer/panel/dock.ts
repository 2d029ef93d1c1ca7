// The controls over the canvas' bottom right corner — an object's card and the measuring panel above, the measuring
// buttons and the floor plan side by side at the bottom — in one column, so that none covers another whatever each
// one's size (each shows or hides itself), and the bottom row stays as low as one button.

import { h } from "./dom";
import "./dock.css";

/** Put `above` (top to bottom) and `row` (left to right, along the bottom) into the dock of `container` (the stage's
 *  box), made on first use. */
export function dock(container: HTMLElement, above: HTMLElement[], row: HTMLElement[]): HTMLElement {
  let column = container.querySelector<HTMLElement>(":scope > .sv-dock");
  if (!column) {
    // The bottom row (buttons, a folded plan) is let alone by framing, as the status line is: what is framed may reach
    // under its corner (stage/visibleRect.ts).
    column = h("div", { class: "sv-dock", "data-testid": "dock" }, h("div", { class: "sv-dock-row", "data-frame-under": "" }));
    container.append(column);
  }
  const bottom = column.querySelector<HTMLElement>(":scope > .sv-dock-row")!;
  bottom.before(...above);
  bottom.append(...row);
  return column;
}
