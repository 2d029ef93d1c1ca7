// Scene codes in the chat's answers as buttons: every room (F-R) and object (F-R-O) code the scene has becomes a
// button that frames it in the viewer beside the chat (ViewerHandle.frame); a code the scene does not have stays
// text. Which codes the scene has is read from the server (its manifest) when the first answer holding something
// like a code needs it. Only DOM nodes are built, as for addresses (dom.ts linkify).
import { apiOrigin } from "../apiBase";
import type { components } from "../generated/api";
import { getJson } from "../http";
import { bindAttr, h } from "./dom";
import { t } from "./strings";

type Schemas = components["schemas"];

// A code alone: not part of a longer run of digits and dashes, a word or a decimal number.
const CODE_IN_TEXT = /(?<![\w.-])\d+-\d+(?:-\d+)?(?![\w-]|\.\d)/g;

/** Every room and object code of the scene this server serves. */
async function sceneCodes(): Promise<ReadonlySet<string>> {
  const list = await getJson<Schemas["SceneList"]>("/api/scenes");
  const first = list.scenes?.[0];
  if (!first) return new Set();
  const manifest = await getJson<Schemas["SceneManifest"]>(new URL(first.url, `${apiOrigin()}/`).pathname);
  const codes = new Set<string>();
  for (const floor of manifest.floors) {
    for (const room of floor.rooms) {
      codes.add(room.code);
      for (const obj of room.objects) codes.add(obj.code);
    }
  }
  return codes;
}

/** The text nodes under `el` that are not inside a link or a button already. */
function plainTextNodes(el: HTMLElement): Text[] {
  const nodes: Text[] = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest("a, button")) nodes.push(node as Text);
  }
  return nodes;
}

export class CodeLinks {
  private codes: Promise<ReadonlySet<string>> | null = null;

  /** `frame`: show a code in the viewer (a click on its button). */
  constructor(private readonly frame: (code: string) => void) {}

  /** The codes in `el`'s text become buttons once the scene's codes are known; then `el.dataset.codeLinks` is
   *  "done" ("failed" when they could not be read: the codes stay text). */
  apply(el: HTMLElement): void {
    if (!(el.textContent ?? "").match(CODE_IN_TEXT)) {
      el.dataset.codeLinks = "done";
      return;
    }
    this.known().then(
      (codes) => {
        for (const node of plainTextNodes(el)) this.link(node, codes);
        el.dataset.codeLinks = "done";
      },
      () => {
        this.codes = null; // asked again for the next answer
        el.dataset.codeLinks = "failed";
      },
    );
  }

  private known(): Promise<ReadonlySet<string>> {
    this.codes ??= sceneCodes();
    return this.codes;
  }

  /** One text node, its known codes made buttons. */
  private link(node: Text, codes: ReadonlySet<string>): void {
    const text = node.data;
    const parts: Node[] = [];
    let last = 0;
    for (const match of text.matchAll(CODE_IN_TEXT)) {
      const code = match[0];
      if (!codes.has(code)) continue;
      const at = match.index ?? 0;
      if (at > last) parts.push(document.createTextNode(text.slice(last, at)));
      parts.push(this.button(code));
      last = at + code.length;
    }
    if (!parts.length) return;
    if (last < text.length) parts.push(document.createTextNode(text.slice(last)));
    node.replaceWith(...parts);
  }

  private button(code: string): HTMLButtonElement {
    const button = bindAttr(h("button", { type: "button", class: "code-link", "data-testid": "code-link", "data-code": code }, code),
                            "aria-label", () => t("chat.show_code", { code }));
    button.addEventListener("click", () => this.frame(code));
    return button;
  }
}
