// Where the labels over the canvas go (labels.ts draws them): a pure layout on the screen, in CSS pixels.
// Each label is tried in a few places near what it names — a candidate's label beside its projected box (above it
// first, then higher, below, left, right), never over any candidate's box; another label above its anchor point —
// and takes the first place that is inside the canvas, clear of the panels over it and of the labels placed
// before it. Labels are placed in order of importance (hovered, picked, candidates, …), what the camera was framed
// on first, then the ones nearest the middle of the screen, and at most a readable number of them: the rest, those off the screen and those
// that find no free place are not drawn. So labels never overlap each other and never cover a candidate.

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface LabelBox {
  key: string;
  /** Lower first (labels.ts RANK); of the same rank, what was framed first. */
  rank: number;
  framed: boolean;
  w: number;
  h: number;
  /** A candidate's box on the screen: the label goes beside it. Else `point`: the label goes above it. */
  box: Rect | null;
  point: { x: number; y: number } | null;
}

export interface Placement {
  /** The label's top left. */
  x: number;
  y: number;
  /** A line from what it names to a label moved away from it: x, and the span from y0 to y1 (null: none). */
  lead: { x: number; y0: number; y1: number } | null;
}

// Label bottoms sit this far above their anchor; labels keep this far apart and from the canvas' edges.
const LIFT_PX = 4;
const GAP_PX = 2;
const EDGE_PX = 4;
// A label's room on the screen: a canvas of this many square CSS pixels per label reads well (12 at most).
const AREA_PER_LABEL = 25_000;
const MIN_LABELS = 4;
const MAX_LABELS = 12;

export const overlaps = (a: Rect, b: Rect): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/** How many labels a canvas of this size shows at most. */
export function readableCount(width: number, height: number): number {
  return Math.max(MIN_LABELS, Math.min(MAX_LABELS, Math.floor((width * height) / AREA_PER_LABEL)));
}

/**
 * Where each label goes (absent: not drawn). `keepOff` are what no label may cover (the panels over the canvas and
 * the candidates' boxes); `max` the most drawn.
 */
export function layoutLabels(labels: LabelBox[], area: { width: number; height: number }, keepOff: Rect[], max: number): Map<string, Placement> {
  const placed: Rect[] = [];
  const out = new Map<string, Placement>();
  const mid = { x: area.width / 2, y: area.height / 2 };
  const anchored = labels.map((label) => ({ label, at: anchorOf(label) }))
    .filter((a): a is { label: LabelBox; at: { x: number; y: number } } => a.at !== null && onScreen(a.label, a.at, area));
  const far = (at: { x: number; y: number }) => Math.hypot(at.x - mid.x, at.y - mid.y);
  anchored.sort((a, b) => a.label.rank - b.label.rank || Number(b.label.framed) - Number(a.label.framed) || far(a.at) - far(b.at));
  for (const { label, at } of anchored) {
    if (out.size >= max) break;
    const spot = placesOf(label, at, area).find((r) => inside(r, area) && !placed.some((p) => overlaps(p, r))
                                                      && !keepOff.some((k) => overlaps(k, r)));
    if (!spot) continue;
    placed.push(spot);
    out.set(label.key, { x: spot.x0, y: spot.y0, lead: leadOf(label, at, spot) });
  }
  return out;
}

/** The middle of a box's top edge, or the point. */
function anchorOf(label: LabelBox): { x: number; y: number } | null {
  return label.box ? { x: (label.box.x0 + label.box.x1) / 2, y: label.box.y0 } : label.point;
}

/** Labelled only when what it names is on the screen: a box's middle, or the point. */
function onScreen(label: LabelBox, at: { x: number; y: number }, area: { width: number; height: number }): boolean {
  const y = label.box ? (label.box.y0 + label.box.y1) / 2 : at.y;
  return at.x >= 0 && at.x <= area.width && y >= 0 && y <= area.height;
}

function inside(r: Rect, area: { width: number; height: number }): boolean {
  return r.x0 >= 0 && r.y0 >= EDGE_PX && r.x1 <= area.width && r.y1 <= area.height - EDGE_PX;
}

/** The places a label may take, best first. */
function placesOf(label: LabelBox, at: { x: number; y: number }, area: { width: number; height: number }): Rect[] {
  const { w, h } = label;
  // centred over its anchor, kept inside the canvas sideways (a candidate at the edge keeps a readable label)
  const x0 = area.width > w + 2 * EDGE_PX ? Math.min(Math.max(at.x - w / 2, EDGE_PX), area.width - EDGE_PX - w) : at.x - w / 2;
  const row = (top: number, left = x0): Rect => ({ x0: left, y0: top, x1: left + w, y1: top + h });
  const above = (k: number) => row(at.y - LIFT_PX - h - k * (h + GAP_PX));
  const bottom = label.box ? label.box.y1 : at.y;
  const below = (k: number) => row(bottom + LIFT_PX + k * (h + GAP_PX));
  const tries = [above(0), above(1), below(0)];
  if (label.box) {
    const middle = (label.box.y0 + label.box.y1) / 2 - h / 2;
    tries.push(row(middle, label.box.x0 - GAP_PX - w), row(middle, label.box.x1 + GAP_PX));
  }
  tries.push(above(2), below(1), above(3), below(2), above(4), above(5));
  return tries;
}

/** A vertical line from the anchor to a label that is not right beside it. */
function leadOf(label: LabelBox, at: { x: number; y: number }, spot: Rect): Placement["lead"] {
  const box = label.box;
  if (box && spot.x1 <= box.x0 || box && spot.x0 >= box.x1) return null; // beside the box, at its middle
  if (spot.y1 <= at.y) return spot.y1 >= at.y - LIFT_PX - 0.5 ? null : { x: at.x, y0: spot.y1, y1: at.y };
  const from = box ? box.y1 : at.y;
  return spot.y0 <= from + LIFT_PX + 0.5 ? null : { x: at.x, y0: from, y1: spot.y0 };
}
