// The point-cloud viewer: `mountViewer` opens the page URL's target and returns the handle
// the chat panel uses to switch views in place. Modules: app.ts (DOM, URL state, API calls, modes),
// stage.ts (three.js scene, camera, picking), panel.ts (the DOM around the canvas), loader.ts,
// sessionFlow.ts / selection.ts (a selection session), looks.ts (styles and labels).
import "./viewer.css";
import type { ViewTarget, ViewerHandle } from "../contracts";
import { ViewerApp } from "./app";

export function mountViewer(root: HTMLElement, target: ViewTarget): ViewerHandle {
  root.replaceChildren();
  const app = new ViewerApp(root, target);
  void app.load(target, true);
  const handle: ViewerHandle = {
    open: (next) => app.open(next),
    current: () => app.current(),
    sessionEnded: (sessionId, status, codes) => app.sessionEnded(sessionId, status, codes),
  };
  window.sceneViewer.handle = handle; // the same handle the chat panel gets, for tests
  return handle;
}
