// The page: the point-cloud viewer and, beside it (or as a tab, on a phone), the chat panel that drives it.
// Noto Sans SC, shipped with the page: Chinese reads on a machine without a CJK font. Its CSS splits the font into
// about a hundred files by unicode-range, and the browser fetches only those holding the glyphs on the page.
import "@fontsource/noto-sans-sc/400.css";
import "./app.css";
import type { ViewerHandle } from "./contracts";
import { mountLayout } from "./layout";
import { mountViewer } from "./viewer";
import { mountChat, type ChatInput } from "./chat";

const layout = mountLayout(document.getElementById("app")!);
// An info card's "Ask about this" puts a question into the chat's input (brought forward on a phone).
let chatInput: ChatInput | null = null;
const viewer = mountViewer(document.getElementById("viewer")!, {
  ask(text) {
    layout.show("chat");
    chatInput?.fill(text);
  },
});
// What the chat opens in the viewer: a pick brings the viewer forward (the user must answer there), and so does a
// code the user clicked; another view, or an answer followed there, only marks its tab, so that an answer being read
// is not taken away.
const shown: ViewerHandle = {
  ...viewer,
  open(target) {
    if (target.selectionMode) layout.show("viewer");
    else layout.notify("viewer");
    return viewer.open(target);
  },
  follow(answer) {
    const moved = viewer.follow(answer);
    if (moved) layout.notify("viewer");
    return moved;
  },
  frame(code) {
    layout.show("viewer");
    return viewer.frame(code);
  },
};
chatInput = mountChat(document.getElementById("chat")!, shown, {
  answered: () => layout.notify("chat"),
  asked: () => layout.show("chat"),
});
