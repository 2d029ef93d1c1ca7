// The page's two halves, the viewer and the chat: side by side on a wide screen; on a phone (app.css) one at a
// time, as tabs, so the page never becomes one long scroll with the viewer scrolled away. A tab that is not shown
// gets a dot when something new happens in it (an answer in the chat, a view opened in the viewer); a pick the
// agent asks for brings the viewer forward, a question dialog the chat.
import { defineStrings, onLangChange } from "./i18n";

export type Pane = "viewer" | "chat";

const t = defineStrings({
  en: { tabs: "Page sections", viewer: "3D view", chat: "Chat", fresh: "(new)" },
  zh: { tabs: "页面部分", viewer: "三维视图", chat: "对话", fresh: "（有新内容）" },
});

// The width below which the halves are tabs (app.css uses the same).
const NARROW = "(max-width: 800px)";

export interface Layout {
  /** Bring a pane forward (on a phone; side by side both are always shown). */
  show(pane: Pane): void;
  /** Something new in `pane`: a dot on its tab unless it is the one shown. */
  notify(pane: Pane): void;
}

export function mountLayout(app: HTMLElement): Layout {
  const panes: Record<Pane, HTMLElement> = { viewer: document.getElementById("viewer")!, chat: document.getElementById("chat")! };
  const bar = document.createElement("div");
  bar.className = "page-tabs";
  bar.setAttribute("role", "tablist");
  const tabs = {} as Record<Pane, HTMLButtonElement>;
  for (const pane of ["viewer", "chat"] as const) {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.setAttribute("role", "tab");
    tab.id = `tab-${pane}`;
    tab.dataset.testid = `tab-${pane}`;
    tab.setAttribute("aria-controls", pane);
    tab.addEventListener("click", () => show(pane));
    tabs[pane] = tab;
    bar.append(tab);
  }
  app.prepend(bar);
  const narrow = window.matchMedia(NARROW);
  let shown: Pane = "viewer";

  function render(): void {
    bar.setAttribute("aria-label", t("tabs"));
    app.dataset.pane = shown;
    for (const pane of ["viewer", "chat"] as const) {
      const tab = tabs[pane];
      const fresh = tab.dataset.fresh === "true";
      tab.textContent = t(pane);
      if (fresh) {
        const dot = document.createElement("span");
        dot.className = "page-tab-dot";
        dot.textContent = "●";
        dot.title = t("fresh");
        tab.append(" ", dot);
      }
      tab.setAttribute("aria-selected", String(pane === shown));
      // On a phone the pane not shown is out of reach (no focus, no clicks); side by side both are.
      panes[pane].inert = narrow.matches && pane !== shown;
    }
  }

  function show(pane: Pane): void {
    shown = pane;
    delete tabs[pane].dataset.fresh;
    render();
  }

  narrow.addEventListener("change", render);
  onLangChange(render);
  render();
  return {
    show,
    notify(pane) {
      if (narrow.matches && pane !== shown) tabs[pane].dataset.fresh = "true";
      render();
    },
  };
}
