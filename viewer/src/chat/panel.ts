// The chat panel's DOM: the head (title, New chat, the language switch), the "reconnecting…" notice, the
// messages (transcript.ts) with the question dialogs over them (dialog.ts), and the composer: the input, Send
// and Stop. It shows what the chat is doing (chat.ts decides) and hands on what the user asks for.
import { getLang, setLang, LANGS, type Lang } from "../i18n";
import { bindAttr, h, tx } from "./dom";
import { t } from "./strings";
import type { Transcript } from "./transcript";

const LANG_NAMES: Record<Lang, string> = { en: "EN", zh: "中文" };

export interface PanelEvents {
  send(): void;
  stop(): void;
  newChat(): void;
}

/** What the panel shows of the chat's state. */
export interface PanelView {
  /** `document.body.dataset.chatState` (README: Test hooks). */
  state: "idle" | "running" | "waiting" | "error";
  /** A message on its way, or a run going. */
  running: boolean;
  /** What is typed answers the pick the run waits for (the input stays open, and says so). */
  inWords: boolean;
  /** Words on their way that answer that pick. */
  answering: boolean;
  /** A run that Stop can stop, and whether it is being stopped. */
  run: boolean;
  stopping: boolean;
  reconnecting: boolean;
}

export class ChatPanel {
  readonly input = h("textarea", { class: "chat-input", rows: "2", "data-testid": "chat-input" });
  /** The messages; dialogs cover them only, so that the language switch and Stop stay within reach. */
  readonly body: HTMLElement;
  private readonly langButtons: HTMLButtonElement[];
  private readonly newChat = tx(h("button", { type: "button", class: "link-button", "data-testid": "new-chat" }), "chat.new");
  private readonly reconnecting = tx(h("div", { class: "chat-reconnecting", role: "status", "data-testid": "reconnecting", hidden: true }),
                                     "chat.reconnecting");
  private readonly sendButton = tx(h("button", { type: "submit", class: "primary", "data-testid": "chat-send" }), "chat.send");
  private readonly stopButton = tx(h("button", { type: "button", class: "danger", "data-testid": "chat-stop", hidden: true }), "chat.stop");
  private inWords = false;

  constructor(root: HTMLElement, transcript: Transcript, on: PanelEvents) {
    const panel = h("div", { class: "chat-panel" });
    this.body = h("div", { class: "chat-body" }, transcript.el, transcript.jump);
    this.langButtons = LANGS.map((lang) => {
      const button = h("button", { type: "button", "data-lang": lang, "data-testid": `lang-${lang}`,
                                   lang: lang === "zh" ? "zh-CN" : "en" }, LANG_NAMES[lang]);
      button.addEventListener("click", () => setLang(lang));
      return button;
    });
    const langSwitch = bindAttr(h("div", { class: "lang-switch", role: "group", "data-testid": "lang-switch" }, ...this.langButtons),
                                "aria-label", () => t("chat.language"));
    bindAttr(this.input, "placeholder", () => this.placeholder());
    bindAttr(this.input, "aria-label", () => this.inputLabel());
    const form = h("form", { class: "chat-compose" }, this.input, h("div", { class: "chat-buttons" }, this.sendButton, this.stopButton));
    panel.append(
      h("header", { class: "chat-head" }, tx(h("h2", { class: "chat-title" }), "chat.title"), h("span", { class: "chat-spacer" }),
        this.newChat, langSwitch),
      this.reconnecting, this.body, form);
    root.replaceChildren(panel);

    form.addEventListener("submit", (e) => {
      e.preventDefault();
      on.send();
    });
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        on.send();
      }
    });
    this.stopButton.addEventListener("click", () => on.stop());
    this.newChat.addEventListener("click", () => on.newChat());
  }

  render(view: PanelView): void {
    const busy = view.running && !view.inWords;
    this.inWords = view.inWords;
    document.body.dataset.chatState = view.state;
    this.input.disabled = busy || view.answering;
    this.input.setAttribute("placeholder", this.placeholder());
    this.input.setAttribute("aria-label", this.inputLabel());
    this.sendButton.disabled = busy || view.answering;
    this.sendButton.hidden = busy;
    this.stopButton.hidden = !view.running;
    this.stopButton.disabled = !view.run || view.stopping;
    tx(this.stopButton, view.stopping ? "chat.stopping" : "chat.stop");
    this.newChat.disabled = view.running;
    this.reconnecting.hidden = !view.reconnecting;
    for (const button of this.langButtons) button.setAttribute("aria-pressed", String(button.dataset.lang === getLang()));
  }

  private placeholder(): string {
    return t(this.inWords ? "chat.placeholder_pick" : "chat.placeholder");
  }

  private inputLabel(): string {
    return t(this.inWords ? "chat.input_label_pick" : "chat.input_label");
  }
}
