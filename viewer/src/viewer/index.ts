// The point-cloud viewer: `mountViewer` opens the page URL's target and returns the handle
// the chat panel uses to switch views in place. Modules, by folder:
//   app/         the app (app.ts) and its parts: its state (store.ts), loading a target (loading.ts,
//                contentLoad.ts, retry.ts), floors, rooms and framing (places.ts), styling (styling.ts), what an
//                answer or a code clicked in the chat shows (follow.ts), and `window.sceneViewer` (hooks.ts)
//   data/        the server's API (api.ts), links (links.ts), the view model (model.ts) and its loading (loader.ts)
//   navigation/  views as history entries: Back and Forward (navigation.ts, history.ts)
//   stage/       the three.js scene, camera, framing and boxes (stage.ts); which candidates a pick frames first
//                (candidateFraming.ts)
//   points/      an item's own points: format, chunks, clouds, shaders
//   tiles/       a large scene's level-of-detail tiles (tiledView.ts)
//   picking/     GPU id picking and what the pointer does (clicks.ts); a tap near a candidate picks it (nearest.ts)
//   looks/       how each item looks: styles, labels, boxes, colour modes (looks.ts)
//   panel/       the DOM around the canvas (panel.ts), a pick's candidate list (candidateList.ts, candidateRows.ts),
//                the view controls, the labels over it (labels.ts, placed by labelLayout.ts)
//   session/     a selection session (sessionFlow.ts, selection.ts) and the keyboard (keys.ts)
// and, beside them, every string (strings.ts) and failures in words (errors.ts).
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
  return app.handle; // the same handle as `window.sceneViewer.handle`, for tests
}
