// The MCP App page (mcp-app.html, built as one self-contained file by vite.mcp-app.config.ts): the viewer alone, in
// an MCP host's sandboxed frame (mcp_server/app_view.py names it as the UI of `ask` and `visualize`). Each tool result
// the host hands over says what to show (results.ts): the pick to make or the view opened — the viewer opens its URL,
// whose origin is the API server every request then goes to (apiBase.ts) — and ask's answer, shown under the viewer
// (outcome.ts) while the viewer shows what it is about, as the page's chat does (chat/run.ts). Selection mode is the
// viewer's own: candidates highlighted, a click picks, Confirm posts the pick to the API server.
// Test hooks: those of the viewer (`window.sceneViewer`, `document.body.dataset.viewerState`: README, Test hooks),
// once a URL was opened; `document.body.dataset.mcpApp` = "connected" once the host answered, and
// `document.body.dataset.mcpAppShown` = the viewer URL opened last.
// No Noto Sans SC here (main.ts ships it with the served page): the host's fonts are used.
import "../app.css";
import "./mcpApp.css";
import { App, applyHostFonts, applyHostStyleVariables, type McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import { setApiBase } from "../apiBase";
import { parseViewerUrl, sameTarget, type ViewerHandle } from "../contracts";
import { hasChinese, setLang } from "../i18n";
import { mountViewer } from "../viewer";
import { Outcome } from "./outcome";
import { inputWords, readResult, type ResultShown } from "./results";

// The viewer's height: fixed, so that the frame the host sizes to the page's content (autoResize) does not grow
// with itself; lower when the host allows less, filled when the host fixes the frame's height (mcpApp.css).
const VIEWER_HEIGHT_PX = 560;
const MIN_VIEWER_HEIGHT_PX = 240;
const OUTCOME_ROOM_PX = 64;

const page = document.getElementById("mcp-app")!;
const viewerRoot = document.getElementById("viewer")!;
const outcome = new Outcome(document.getElementById("outcome")!);
let viewer: ViewerHandle | null = null;
let host: McpUiHostContext = {};
/** The words of the call's input and its results: they say which language to show. */
let words: string[] = [];
/** Pick sessions the results named: an answer's own picks (the viewer may keep them shown). */
const sessions = new Set<string>();

/** Chinese when the host's locale or the words say so; else English when the host names a locale. */
function chooseLanguage(): void {
  const locale = host.locale?.toLowerCase() ?? null;
  if (locale?.startsWith("zh") || words.some(hasChinese)) setLang("zh");
  else if (locale) setLang("en");
}

/** The host's context (whole, or what changed): its locale, fonts and the room the frame has. */
function hostChanged(changed: McpUiHostContext): void {
  host = { ...host, ...changed };
  chooseLanguage();
  if (changed.styles?.variables) applyHostStyleVariables(changed.styles.variables);
  if (changed.styles?.css?.fonts) applyHostFonts(changed.styles.css.fonts);
  const dims = host.containerDimensions;
  const fixed = dims && "height" in dims ? dims.height : null;
  const most = dims && "maxHeight" in dims ? dims.maxHeight : undefined;
  if (fixed) page.style.height = `${fixed}px`;
  else page.style.removeProperty("height");
  page.toggleAttribute("data-fixed-height", !!fixed);
  const height = most ? Math.max(MIN_VIEWER_HEIGHT_PX, Math.min(VIEWER_HEIGHT_PX, most - OUTCOME_ROOM_PX)) : VIEWER_HEIGHT_PX;
  page.style.setProperty("--mcp-viewer-height", `${height}px`);
}

/** Open a viewer URL: the viewer is mounted on the first, later ones open in place. */
function open(url: string): void {
  let target;
  try {
    setApiBase(url);
    target = parseViewerUrl(url);
  } catch {
    outcome.badUrl(url);
    return;
  }
  document.body.dataset.mcpAppShown = url;
  viewerRoot.hidden = false;
  if (!viewer) viewer = mountViewer(viewerRoot, { url });
  else if (!sameTarget(viewer.current(), target)) viewer.open(target).catch(() => undefined); // it shows its own errors
}

function show(shown: ResultShown): void {
  words = [...words, ...shown.words];
  for (const id of shown.sessions) sessions.add(id);
  chooseLanguage();
  if (shown.open) open(shown.open);
  const answer = shown.answer;
  if (!answer) {
    if (shown.open) outcome.hide();
    return;
  }
  outcome.answer(answer.text, answer.status);
  if (!viewer) {
    if (answer.url) open(answer.url); // else the answer alone
    return;
  }
  const manifest = answer.url ? parseViewerUrl(answer.url).manifest : null;
  const moved = viewer.follow({ codes: answer.codes, manifest, sessions: [...sessions] });
  if (moved && manifest) document.body.dataset.mcpAppShown = answer.url!; // the answer's view
}

const app = new App({ name: "scene-agent viewer", version: __VIEWER_VERSION__ }, {}, { autoResize: true });
// Tool input and results are sent once, right after the handshake: listened to before connect().
app.ontoolinput = (params) => {
  words = [...words, ...inputWords(params.arguments)];
  chooseLanguage();
};
app.ontoolresult = (result) => show(readResult(result));
app.ontoolcancelled = (params) => outcome.cancelled(params.reason);
app.onhostcontextchanged = (changed) => hostChanged(changed);

hostChanged({});
try {
  await app.connect();
  hostChanged(app.getHostContext() ?? {});
  document.body.dataset.mcpApp = "connected";
} catch (exc) {
  document.body.dataset.mcpApp = "failed"; // no host answered (the page opened by itself)
  console.error("scene-agent viewer: no MCP host", exc);
}
