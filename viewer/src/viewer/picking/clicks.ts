// What the pointer does on the canvas: hovering marks what is under it, a click picks it (selection mode) or
// shows what it is (view mode: the info card), a double-click looks inside a room or frames an object. While a
// measuring tool is in use (measure/tools.ts), clicks and double-clicks are the tool's and nothing is hovered.
// The item under the pointer is found by GPU id picking (picking.ts), or by three's Raycaster when the benchmark
// compares the two (raycastPick.ts); a tap that hits no candidate picks the one drawn nearest it, if it is near
// enough (nearest.ts).

import type { ViewModel } from "../data/model";
import { nearestTarget } from "./nearest";
import { PointerInput } from "./pointer";
import { raycastPick } from "./raycastPick";
import type { SessionFlow } from "../session/sessionFlow";
import type { Stage } from "../stage/stage";

export type PickMethod = "gpu" | "raycast";

/** A click's pick, for the benchmark (`window.sceneViewer.lastPick`). */
export interface PickRecord {
  code: string | null;
  method: PickMethod;
  /** The pick itself. */
  pickMs: number;
  /** From the click event to the frame with the new highlight drawn (GPU finished). */
  clickToFrameMs: number;
}

/** The pick target under canvas pixel (x, y) (CSS pixels), or null; `targets[id - 1]` is what pick id `id` stands for. */
export function codeAt(stage: Stage, targets: readonly string[], x: number, y: number, method: PickMethod): string | null {
  const id = method === "gpu" ? stage.pick(x, y) : raycastPick(stage, x, y);
  return id > 0 ? targets[id - 1] ?? null : null;
}

export interface PointerTarget {
  stage: Stage;
  /** Which picker clicks use (the benchmark compares the two). */
  picker(): PickMethod;
  /** A click was picked, and its frame drawn. */
  picked(pick: PickRecord): void;
  targets(): readonly string[];
  model(): ViewModel | null;
  session(): SessionFlow | null;
  drillRoom(): string | null;
  hover(code: string | null): void;
  enterRoom(room: string): void;
  frame(codes: string[]): void;
  /** The measuring tool in use, which takes the clicks; null when none is. */
  tool(): { click(x: number, y: number, e: MouseEvent): void; dblclick(): void } | null;
  /** A click in view mode (no pick asked): what it landed on, or null. */
  inspect(code: string | null): void;
}

export function listenToPointer(on: PointerTarget): void {
  const { stage } = on;
  const at = (x: number, y: number, method: PickMethod) => (on.model() ? codeAt(stage, on.targets(), x, y, method) : null);
  new PointerInput(stage.canvas, {
    hover: (x, y) => on.hover(on.tool() ? null : at(x, y, "gpu")),
    leave: () => on.hover(null),
    click: (x, y, e, pointerType) => {
      const tool = on.tool();
      if (tool) return tool.click(x, y, e);
      const session = on.session();
      const model = on.model();
      if (!session && e.detail <= 1) on.inspect(at(x, y, "gpu"));
      if (!session || e.detail > 1) return; // the second click of a double-click does not undo the first
      const began = performance.now();
      const method = on.picker();
      let code = at(x, y, method);
      if (!code && pointerType === "touch" && model) code = nearestTarget(stage, model, on.targets(), x, y);
      const pickMs = performance.now() - began;
      if (code) session.toggle(code);
      stage.drawNow();
      on.picked({ code, method, pickMs, clickToFrameMs: performance.now() - e.timeStamp });
    },
    dblclick: (x, y) => {
      const tool = on.tool();
      if (tool) return tool.dblclick();
      const code = at(x, y, "gpu");
      const item = code ? on.model()?.items.find((i) => i.code === code) : undefined;
      if (!code || !item) return;
      if (item.kind === "room" && on.drillRoom() !== code) on.enterRoom(code);
      else on.frame([code]);
    },
  });
}
