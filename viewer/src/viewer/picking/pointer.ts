// Pointer input on the canvas, beside the orbit controls: hover (one GPU pick per animation frame at
// most, never while dragging), click without drag (with the kind of pointer that made it: a touch is
// forgiven more, clicks.ts), double-click.

const DRAG_PX = 5;

export interface PointerHandlers {
  hover(x: number, y: number): void;
  leave(): void;
  click(x: number, y: number, e: MouseEvent, pointerType: string): void;
  dblclick(x: number, y: number): void;
}

export class PointerInput {
  private down: { x: number; y: number } | null = null;
  private moved = false;
  private pointerType = "mouse";
  private pending: { x: number; y: number } | null = null;
  private frame = 0;

  constructor(private readonly canvas: HTMLCanvasElement, private readonly on: PointerHandlers) {
    canvas.addEventListener("pointerdown", (e) => {
      this.down = { x: e.clientX, y: e.clientY };
      this.moved = false;
      this.pointerType = e.pointerType;
    });
    canvas.addEventListener("pointermove", (e) => {
      if (this.down && Math.hypot(e.clientX - this.down.x, e.clientY - this.down.y) > DRAG_PX) this.moved = true;
      if (e.buttons) return;
      this.pending = this.local(e);
      if (!this.frame) this.frame = requestAnimationFrame(() => this.flushHover());
    });
    canvas.addEventListener("pointerup", () => {
      this.down = null;
    });
    canvas.addEventListener("pointerleave", () => {
      this.pending = null;
      on.leave();
    });
    canvas.addEventListener("click", (e) => {
      if (this.moved) return;
      const at = this.local(e);
      const type = e instanceof PointerEvent && e.pointerType ? e.pointerType : this.pointerType;
      on.click(at.x, at.y, e, type);
    });
    canvas.addEventListener("dblclick", (e) => {
      const at = this.local(e);
      on.dblclick(at.x, at.y);
    });
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const rect = this.canvas.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  private flushHover(): void {
    this.frame = 0;
    if (this.pending) this.on.hover(this.pending.x, this.pending.y);
    this.pending = null;
  }
}
