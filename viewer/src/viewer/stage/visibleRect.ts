// The part of the canvas nothing covers: the largest rectangles of it clear of the overlays around it
// (title bar, side panel or bottom sheet, view controls, status line), for framing (stage.ts frame), so
// that what is framed is not hidden behind a panel — on a phone as on a desktop.

import type { ScreenRect } from "./framing";

/**
 * The largest rectangles of `area` that meet none of `obstacles` (all in the same coordinates): each one
 * as large as it can be (no other contains it), largest first, at most `limit` of them. Framing tries
 * each (stage.ts frame): a tall free part may show a wide row of candidates smaller than a wide one.
 */
export function freeRects(area: ScreenRect, obstacles: ScreenRect[], limit = 8): ScreenRect[] {
  const right = area.left + area.width;
  const bottom = area.top + area.height;
  const boxes = obstacles
    .map((o) => ({ x0: Math.max(o.left, area.left), y0: Math.max(o.top, area.top),
                   x1: Math.min(o.left + o.width, right), y1: Math.min(o.top + o.height, bottom) }))
    .filter((b) => b.x1 > b.x0 && b.y1 > b.y0);
  // Every side of a largest rectangle lies on the area's side or on an obstacle's side.
  const xs = [...new Set([area.left, right, ...boxes.flatMap((b) => [b.x0, b.x1])])].sort((a, b) => a - b);
  const ys = [...new Set([area.top, bottom, ...boxes.flatMap((b) => [b.y0, b.y1])])].sort((a, b) => a - b);
  const found: { x0: number; y0: number; x1: number; y1: number }[] = [];
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      const across = boxes.filter((b) => b.x0 < xs[j] && xs[i] < b.x1);
      for (let k = 0; k < ys.length; k++) {
        let reach = -1; // the lowest bottom free from this top
        for (let l = k + 1; l < ys.length && !across.some((b) => b.y0 < ys[l] && ys[k] < b.y1); l++) reach = l;
        if (reach > k) found.push({ x0: xs[i], x1: xs[j], y0: ys[k], y1: ys[reach] });
      }
    }
  }
  const inside = (a: typeof found[number], b: typeof found[number]) =>
    a !== b && b.x0 <= a.x0 && b.y0 <= a.y0 && a.x1 <= b.x1 && a.y1 <= b.y1;
  const maximal = found.filter((a) => !found.some((b) => inside(a, b)));
  maximal.sort((a, b) => (b.x1 - b.x0) * (b.y1 - b.y0) - (a.x1 - a.x0) * (a.y1 - a.y0));
  const rects = maximal.slice(0, limit).map((r) => ({ left: r.x0, top: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0 }));
  return rects.length ? rects : [{ ...area }];
}

/**
 * What covers `canvas` among `root`'s other descendants: visible elements drawn over it. A container
 * that lets the pointer through (pointer-events: none, like a title bar's row) is looked into instead.
 */
export function coveringRects(root: HTMLElement, canvas: HTMLElement): ScreenRect[] {
  const at = canvas.getBoundingClientRect();
  const out: ScreenRect[] = [];
  const visit = (el: Element) => {
    for (const child of el.children) {
      if (!(child instanceof HTMLElement) || child.hidden) continue;
      const style = getComputedStyle(child);
      if (style.display === "none" || style.visibility === "hidden" || child.classList.contains("sv-labels")) continue;
      if (child.dataset.frameUnder !== undefined) continue; // small controls in a corner: framing may draw under them
      // the canvas' own ancestors (the stage) are not in the way; their other children may be
      if (child.contains(canvas) || style.pointerEvents === "none") {
        if (child !== canvas) visit(child);
        continue;
      }
      const r = child.getBoundingClientRect();
      if (r.width > 0 && r.height > 0) out.push({ left: r.left - at.left, top: r.top - at.top, width: r.width, height: r.height });
    }
  };
  visit(root);
  return out;
}
