// The point-cloud viewer: `mountViewer` opens the page URL's target and returns the handle
// the chat panel uses to switch views in place. Modules: app.ts (DOM, URL state, API calls, modes),
// stage.ts (three.js scene, camera, picking), panel.ts (the DOM around the canvas), loader.ts,
// sessionFlow.ts / selection.ts (a selection session), looks.ts (styles and labels), navigation.ts /
// history.ts (views as history entries: Back and Forward).
import "./viewer.css";
import type { ViewerHandle } from "../contracts";
import { ViewerApp } from "./app/app";
import { placeOfUrl } from "./navigation/history";

/** The viewer in `root`, showing what the page's URL names (a view, a pick, a floor, a room looked inside). */
export function mountViewer(root: HTMLElement): ViewerHandle {
  root.replaceChildren();
  const place = placeOfUrl(window.location.href);
  const app = new ViewerApp(root, place.target);
  void app.start(place);
  const handle: ViewerHandle = {
    open: (next) => app.open(next),
    current: () => app.current(),
    sessionEnded: (sessionId, status, codes) => app.sessionEnded(sessionId, status, codes),
    camera: () => app.camera(),
  };
  window.sceneViewer.handle = handle; // the same handle the chat panel gets, for tests
  return handle;
}
