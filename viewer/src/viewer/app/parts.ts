// What the app and its parts (loading.ts, places.ts, styling.ts) draw through, made once per page by app.ts:
// the DOM around the canvas (panel.ts), the labels over it (labels.ts), the view controls (viewControls.ts),
// and the 3D stage once WebGL is up (stage.ts).

import type { Labels } from "../panel/labels";
import type { Panel } from "../panel/panel";
import type { ViewControls } from "../panel/viewControls";
import type { Stage } from "../stage/stage";

export interface ViewerParts {
  readonly panel: Panel;
  readonly labels: Labels;
  readonly view: ViewControls;
  /** The stage, null until the first view needs it. */
  stage(): Stage | null;
}
