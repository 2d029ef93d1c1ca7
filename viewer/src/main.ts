// The page: the point-cloud viewer and, beside it (or as a tab, on a phone), the chat panel that drives it.
// Noto Sans SC, shipped with the page: Chinese reads on a machine without a CJK font. Its CSS splits the font into
// about a hundred files by unicode-range, and the browser fetches only those holding the glyphs on the page.
import "@fontsource/noto-sans-sc/400.css";
import "./app.css";
import type { ViewerHandle } from "./contracts";
import { mountLayout } from "./layout";
import { mountViewer } from "./viewer";
import { mountChat } from "./chat";

const layout = mountLayout(document.getElementById("app")!);
const viewer = mountViewer(document.getElementById("viewer")!);
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
mountChat(document.getElementById("chat")!, shown, {
  answered: () => layout.notify("chat"),
  asked: () => layout.show("chat"),
});
