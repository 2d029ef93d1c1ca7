// The info card: a click on an object in view mode (no pick asked, no measuring tool in use) shows what it is and
// how big — its label and code, its room and storey, width × depth × height of its points' box, its volume and its
// dominant colours with swatches — as the server measures them (data/objectInfo.ts). "Ask about this" puts a
// question about it into the chat's input when the page has a chat; × closes the card.

import "./infoCard.css";
import { ApiError } from "../data/api";
import { getObjectInfo, type ObjectInfo } from "../data/objectInfo";
import { t, type StringKey } from "../strings";
import { h, setText } from "./dom";

export class InfoCard {
  readonly el = h("section", { class: "svi-card", "data-testid": "info-card", role: "dialog", hidden: true });
  private readonly title = h("h3", { class: "svi-title", "data-testid": "info-title" });
  private readonly code = h("span", { class: "svi-code", "data-testid": "info-code" });
  private readonly closeButton = h("button", { type: "button", class: "svi-close", "data-testid": "info-close" }, "×");
  private readonly status = h("p", { class: "svi-status", "data-testid": "info-status", role: "status" });
  private readonly facts = h("dl", { class: "svi-facts" });
  private readonly askButton = h("button", { type: "button", class: "sv-tool svi-ask", "data-testid": "info-ask" });
  private shown: { code: string; info: ObjectInfo | null; error: unknown } | null = null;
  private abort = new AbortController();

  /** `ask`: put words into the chat's input (none: the page has no chat, and the card no "Ask about this");
   *  `changed`: the card was opened on an object, or closed (null). */
  constructor(private readonly ask: ((text: string) => void) | null, private readonly changed: (code: string | null) => void) {
    this.el.append(h("header", { class: "svi-head" }, this.title, this.code, this.closeButton), this.status, this.facts, this.askButton);
    this.closeButton.addEventListener("click", () => this.close());
    this.askButton.addEventListener("click", () => {
      const info = this.shown?.info;
      if (info && this.ask) this.ask(t("infoAskQuestion", { label: info.label, code: info.code }));
    });
  }

  /** Over the canvas, in `container` (the stage's box). */
  mount(container: HTMLElement): void {
    container.append(this.el);
  }

  /** The object shown, or null. */
  get current(): string | null {
    return this.shown?.code ?? null;
  }

  /** Show the card of object `code` of scene `sceneId` (read from the server; the card says so meanwhile). */
  open(sceneId: string, code: string): void {
    if (this.shown?.code === code && !this.shown.error) return;
    this.abort.abort();
    const abort = (this.abort = new AbortController());
    this.shown = { code, info: null, error: null };
    this.render();
    getObjectInfo(sceneId, code, abort.signal).then(
      (info) => {
        if (abort.signal.aborted) return;
        this.shown = { code, info, error: null };
        this.render();
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        console.warn("scene-agent viewer: object info", error);
        this.shown = { code, info: null, error };
        this.render();
      });
  }

  close(): void {
    this.abort.abort();
    this.shown = null;
    this.render();
  }

  renderTexts(): void {
    this.render();
  }

  private render(): void {
    const shown = this.shown;
    this.el.hidden = !shown;
    this.changed(shown?.code ?? null);
    if (!shown) return;
    const { code, info, error } = shown;
    this.el.dataset.code = code;
    this.el.dataset.state = info ? "ready" : error ? "error" : "loading";
    this.el.setAttribute("aria-label", t("infoLabel", { what: info ? `${info.label} ${code}` : code }));
    this.closeButton.setAttribute("aria-label", t("infoClose"));
    this.closeButton.title = t("infoClose");
    setText(this.title, info ? info.label.charAt(0).toUpperCase() + info.label.slice(1) : "");
    setText(this.code, code);
    const failed = error instanceof ApiError ? error.serverMessage : String(error);
    setText(this.status, info ? "" : error ? t("infoFailed", { code, message: failed }) : t("infoLoading", { code }));
    this.status.hidden = !!info;
    this.facts.replaceChildren(...(info ? this.factsOf(info) : []));
    this.facts.hidden = !info;
    setText(this.askButton, t("infoAsk"));
    this.askButton.hidden = !info || !this.ask;
  }

  private factsOf(info: ObjectInfo): HTMLElement[] {
    const row = (label: StringKey, testid: string, ...value: (Node | string)[]) =>
      [h("dt", {}, t(label)), h("dd", { "data-testid": testid }, ...value)];
    const floor = info.floor.name ?? info.floor.code;
    const size = info.dimensions;
    const colours = info.colors.length
      ? h("ul", { class: "svi-colours" }, ...info.colors.map((c) =>
        h("li", { class: "svi-colour", "data-hex": c.hex },
          h("span", { class: "svi-swatch", style: `background:${c.hex}`, "aria-hidden": "true" }),
          `${t(`colour_${c.basic}` as StringKey)} · ${c.name} · ${Math.round(c.share * 100)} %`)))
      : t("infoNoColour");
    return [
      ...row("infoRoom", "info-room", t("infoRoomValue", { room: info.room.name, code: info.room.code, floor })),
      ...(size ? row("infoSize", "info-dimensions", t("infoSizeValue", { w: size.width_m.toFixed(2), d: size.depth_m.toFixed(2),
                                                                        h: size.height_m.toFixed(2) })) : []),
      ...(info.volume_m3 !== null && info.volume_m3 !== undefined
        ? row("infoVolume", "info-volume", t("infoVolumeValue", { value: volumeText(info.volume_m3) })) : []),
      ...row("infoColours", "info-colours", colours),
    ];
  }
}

/** Three significant digits ("0.139", "1.61"), whole numbers from 1000. */
function volumeText(v: number): string {
  return v >= 1000 ? v.toFixed(0) : v.toPrecision(3);
}
