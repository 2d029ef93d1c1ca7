// The point-cloud viewer: `mountViewer` opens the page URL's target and returns the handle
// the chat panel uses to switch views in place. Modules, by folder:
//   app/         the app (app.ts) and its parts: its state (store.ts), loading a target (loading.ts,
//                contentLoad.ts, retry.ts), floors, rooms and framing (places.ts), styling (styling.ts), what an
//                answer or a code clicked in the chat shows (follow.ts), the way-finding controls (wayfinding.ts),
//                and `window.sceneViewer` (hooks.ts)
//   data/        the server's API (api.ts), links (links.ts), the view model (model.ts) and its loading (loader.ts),
//                the scene's Chinese names for the search (names.ts)
//   navigation/  views as history entries: Back and Forward (navigation.ts, history.ts), the address they write
//                (address.ts); the camera in the address (cameraLink.ts), search (search.ts), the keys that move the
//                camera (keys.ts)
//   stage/       the three.js scene, camera, framing and boxes (stage.ts), camera steps (cameraMoves.ts), the clip
//                box (clipBox.ts); which candidates a pick frames first (candidateFraming.ts)
//   points/      an item's own points: format, chunks, clouds, shaders
//   tiles/       a large scene's level-of-detail tiles (tiledView.ts)
//   picking/     GPU id picking and what the pointer does (clicks.ts); a tap near a candidate picks it (nearest.ts)
//   looks/       how each item looks: styles, labels, boxes, colour modes (looks.ts)
//   panel/       the DOM around the canvas (panel.ts), a pick's candidate list (candidateList.ts, candidateRows.ts),
//                the view controls, the labels over it (labels.ts, placed by labelLayout.ts), an object's info card,
//                the floor bar, the room list, the search box, the link and screenshot buttons, the clip box's
//                controls, the dock in the canvas' corner (dock.ts)
//   measure/     the measuring tools: distance, height, area (tools.ts), the point a click lands on (snap.ts)
//   minimap/     the floor plan over the canvas (minimap.ts, plan.ts)
//   session/     a selection session (sessionFlow.ts, selection.ts) and the keyboard (keys.ts)
// and, beside them, every string (strings.ts, wayfindStrings.ts) and failures in words (errors.ts).
import "./viewer.css";
import type { ViewerHandle } from "../contracts";
import { ViewerApp, type ViewerOptions } from "./app/app";
import { placeOfUrl } from "./navigation/history";

/** Where the viewer starts: what `url` names, a viewer URL (the MCP App page's: mcpApp/main.ts), else the page's URL. */
export interface MountOptions extends ViewerOptions {
  url?: string;
}

/** The viewer in `root`, showing what the page's URL names (a view, a pick, a floor, a room looked inside);
 *  `options.ask` puts words into the page's chat (an info card's "Ask about this"). */
export function mountViewer(root: HTMLElement, options: MountOptions = {}): ViewerHandle {
  root.replaceChildren();
  const place = placeOfUrl(options.url ?? window.location.href);
  const app = new ViewerApp(root, place.target, options);
  void app.start(place);
  return app.handle; // the same handle as `window.sceneViewer.handle`, for tests
}
