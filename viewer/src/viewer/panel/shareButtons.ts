// Two small buttons in the title bar: "Copy link" puts the page's address — with the floor, the room and the
// camera in it (navigation/cameraLink.ts) — on the clipboard and says so beside it; "Screenshot" downloads the
// 3D view as a PNG. Their icons are SVG (the page draws no emoji).

import { tw } from "../wayfindStrings";
import { h, setText } from "./dom";

export interface ShareEvents {
  /** The address to copy (the camera written into it first). */
  href(): string;
  /** The 3D view as a PNG data URL, or null while nothing is drawn; and a file name for it. */
  snapshot(): { url: string; name: string } | null;
}

const ICONS = {
  link: '<path d="M6.5 9.5l3-3M7 4.5l1.2-1.2a2.8 2.8 0 014 4L11 8.5M9 11.5l-1.2 1.2a2.8 2.8 0 01-4-4L5 7.5"/>',
  camera: '<path d="M2 5.5h2.5l1.2-1.8h4.6l1.2 1.8H14v7H2z"/><circle cx="8" cy="9" r="2.2"/>',
};
const SAID_MS = 2500;

function icon(paths: string): SVGSVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "sv-icon");
  svg.innerHTML = paths; // constant markup above, nothing from data
  return svg;
}

export class ShareButtons {
  private readonly copyButton = h("button", { type: "button", class: "sv-tool sv-icon-button", "data-testid": "copy-link" });
  private readonly shotButton = h("button", { type: "button", class: "sv-tool sv-icon-button", "data-testid": "screenshot" });
  private readonly said = h("span", { class: "sv-said", role: "status", "aria-live": "polite", "data-testid": "share-status" });
  readonly element = h("div", { class: "sv-share" }, this.copyButton, this.shotButton, this.said);
  private saidTimer = 0;
  private saidKey: "linkCopied" | "linkNotCopied" | null = null;

  constructor(private readonly on: ShareEvents) {
    this.copyButton.append(icon(ICONS.link));
    this.shotButton.append(icon(ICONS.camera));
    this.copyButton.addEventListener("click", () => void this.copy());
    this.shotButton.addEventListener("click", () => this.shoot());
    this.renderTexts();
  }

  renderTexts(): void {
    for (const [button, key] of [[this.copyButton, "copyLink"], [this.shotButton, "screenshot"]] as const) {
      button.title = tw(key);
      button.setAttribute("aria-label", tw(key));
    }
    setText(this.said, this.saidKey ? tw(this.saidKey) : "");
    this.said.hidden = !this.saidKey;
  }

  private async copy(): Promise<void> {
    const href = this.on.href();
    let copied = false;
    try {
      await navigator.clipboard.writeText(href);
      copied = true;
    } catch {
      copied = copyByHand(href); // no clipboard API here (an address that is not https, an old browser)
    }
    this.say(copied ? "linkCopied" : "linkNotCopied");
  }

  private shoot(): void {
    const shot = this.on.snapshot();
    if (!shot) return;
    const a = h("a", { href: shot.url, download: shot.name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
  }

  private say(key: "linkCopied" | "linkNotCopied"): void {
    this.saidKey = key;
    this.renderTexts();
    window.clearTimeout(this.saidTimer);
    this.saidTimer = window.setTimeout(() => {
      this.saidKey = null;
      this.renderTexts();
    }, SAID_MS);
  }
}

/** The older way: a selected text field and the copy command. */
function copyByHand(text: string): boolean {
  const field = h("textarea", { class: "sv-offscreen", readonly: true });
  field.value = text;
  document.body.append(field);
  field.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  field.remove();
  return done;
}
