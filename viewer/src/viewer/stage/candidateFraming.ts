// Which candidates of a pick the first view frames, so that they are big enough to pick. Candidates are grouped as
// the list groups them: an object by its room, a room by its floor (model.ts candidateGroupKey); the main group is
// the largest (the first of the largest). Then, in turn:
//   1. every candidate,
//   2. the candidates on the main group's floor,
//   3. the main group alone,
// each less a few of them (a quarter at most) that stand far from its own main group (farther from its centre than
// twice its size, and than FAR_MIN_M): those few may not shrink the framing (the study's office chair among four
// kitchen chairs).
// The first of these whose framing shows each of its candidates big enough to pick is framed (the last one is,
// whatever its size): a handful of candidates (as many as labels read) at least HANDFUL_PX across, more of them at
// least MANY_PX (there a wall of small ones is what people cannot read). The rest are listed with a "Show" button
// (candidateList.ts): 95 chairs on nine floors frame one kitchen's chairs, and the grouped list takes the user to
// the others.

import type { Bounds } from "../data/api";
import { unionBounds } from "../data/model";

export interface CandidatePlace {
  code: string;
  /** candidateGroupKey: its room (objects) or its floor (rooms). */
  group: string;
  floor: string;
  bounds: Bounds;
}

export interface FramingPlan {
  /** Framed first. */
  framed: string[];
  /** Left out of the first framing, in the candidates' order. */
  far: string[];
}

// The smallest a framed candidate's box may be on screen (its shorter side, CSS pixels) for the framing to stand:
// among a handful of candidates (a touch forgives TOUCH_SLOP_PX around each, nearest.ts), and among more.
export const HANDFUL = 12;
export const HANDFUL_PX = 20;
export const MANY_PX = 40;
// "A few": at most this share of the candidates are left out for being far.
const FEW_SHARE = 0.25;
// Far: farther from the main group's centre than this many times its half-diagonal, and than this many metres.
const FAR_FACTOR = 2;
const FAR_MIN_M = 3;

const centre = (b: Bounds) => b.min.map((v, k) => (v + b.max[k]) / 2);

/** The main group: the largest, the first of them on a tie (the candidates' order). */
function mainGroup(places: CandidatePlace[]): CandidatePlace[] {
  const groups = new Map<string, CandidatePlace[]>();
  for (const p of places) groups.set(p.group, [...(groups.get(p.group) ?? []), p]);
  let best: CandidatePlace[] = [];
  for (const members of groups.values()) if (members.length > best.length) best = members;
  return best;
}

/** `places` less those far from their main group, when they are few. */
function nearOnes(places: CandidatePlace[]): CandidatePlace[] {
  const far = farFrom(mainGroup(places), places);
  return places.filter((p) => !far.has(p.code));
}

/** Candidates far from the main group (none unless they are few). */
function farFrom(main: CandidatePlace[], places: CandidatePlace[]): Set<string> {
  const box = unionBounds(main.map((p) => p.bounds))!; // a main group has a candidate at least
  const c = centre(box);
  const half = Math.hypot(...box.max.map((v, k) => (v - box.min[k]) / 2));
  const reach = Math.max(FAR_MIN_M, FAR_FACTOR * half);
  const mains = new Set(main.map((p) => p.code));
  const far = places.filter((p) => !mains.has(p.code) && Math.hypot(...centre(p.bounds).map((v, k) => v - c[k])) > reach);
  return new Set(far.length <= FEW_SHARE * places.length ? far.map((p) => p.code) : []);
}

/**
 * What to frame first. `measure(codes)` frames those codes and says how large the smallest of them is on screen
 * (the shorter side of its box, CSS pixels); the plan's `framed` are framed last.
 */
export function planFraming(places: CandidatePlace[], measure: (codes: string[]) => number): FramingPlan {
  const all = places.map((p) => p.code);
  if (places.length <= 1) return { framed: all, far: [] };
  const main = mainGroup(places);
  const tries: string[][] = [];
  for (const set of [places, places.filter((p) => p.floor === main[0].floor), main]) {
    const codes = nearOnes(set).map((p) => p.code);
    const last = tries[tries.length - 1];
    if (!last || (codes.length < last.length && codes.every((c) => last.includes(c)))) tries.push(codes);
  }
  const big = (codes: string[]) => measure(codes) >= (codes.length <= HANDFUL ? HANDFUL_PX : MANY_PX);
  const framed = tries.find((codes, k) => k === tries.length - 1 || big(codes))!;
  return { framed, far: all.filter((c) => !framed.includes(c)) };
}
