// A test MCP Apps host: the official ext-apps app-bridge in a page, wired to `scene-agent mcp --http` through the
// official TypeScript SDK client, as a chat host that renders MCP Apps is. The page must be served from the MCP
// server's origin (the test serves it at /host.html there), so that the client reaches /mcp.
//
// window.testHost.run({tool, arguments, locale, refuseAppTools}) calls the tool, renders the UI resource the tool
// names in a sandboxed iframe (`srcdoc`, with the resource's CSP as a meta tag: a test shortcut for the spec's
// separate-origin sandbox proxy), hands the view the tool's input and result, and then behaves as the host's model
// would: while the result says `selection_required`, it calls wait_for_selection and hands each result to the view.
// Everything it did is in window.hostLog; document.body.dataset.hostDone is set when the turn is over.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AppBridge, PostMessageTransport, RESOURCE_MIME_TYPE, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";

type Entry = { event: string; [key: string]: unknown };
type Csp = { connectDomains?: string[]; resourceDomains?: string[] };
type Structured = { status?: string; pick?: { session_id?: string }; ask?: Structured } | undefined;

const hostLog: Entry[] = [];
const say = (entry: Entry) => hostLog.push(entry);

/** The CSP a host applies to a view (the MCP Apps spec's rules): nothing but what the resource declares. */
function policy(csp: Csp | undefined): string {
  const resources = (csp?.resourceDomains ?? []).join(" ");
  const connect = (csp?.connectDomains ?? []).join(" ") || "'none'";
  return [`default-src 'none'`, `script-src 'self' 'unsafe-inline' ${resources}`, `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: blob: ${resources}`, `font-src 'self' ${resources}`, `media-src 'self' data: ${resources}`,
    `connect-src ${connect}`, `frame-src 'none'`, `object-src 'none'`, `base-uri 'self'`].join("; ");
}

function withPolicy(html: string, csp: Csp | undefined): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(csp)}">`;
  return html.includes("<head>") ? html.replace("<head>", `<head>${meta}`) : meta + html;
}

async function run(options: { tool?: string; arguments: Record<string, unknown>; locale?: string; refuseAppTools?: boolean }) {
  const tool = options.tool ?? "ask";
  const client = new Client({ name: "scene-agent-test-app-host", version: "1.0.0" },
    { capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } } });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.origin)));
  const listed = (await client.listTools()).tools.find((t) => t.name === tool);
  const uri = listed ? getToolUiResourceUri(listed) : undefined;
  if (!uri) throw new Error(`${tool} names no UI`);
  const content = (await client.readResource({ uri })).contents[0] as { text?: string; mimeType?: string; _meta?: { ui?: { csp?: Csp } } };
  say({ event: "resource", uri, mimeType: content.mimeType, csp: content._meta?.ui?.csp ?? null, bytes: content.text?.length ?? 0 });

  const iframe = document.createElement("iframe");
  iframe.sandbox.add("allow-scripts");
  iframe.style.width = "100%";
  iframe.style.height = "600px";
  iframe.style.border = "0";
  document.getElementById("conversation")!.append(iframe);
  const bridge = new AppBridge(client, { name: "scene-agent-test-app-host", version: "1.0.0" },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} }, message: { text: {} } },
    { hostContext: { theme: "light", displayMode: "inline", availableDisplayModes: ["inline"], locale: options.locale ?? "en-US",
                     containerDimensions: { maxHeight: 1000 } } });
  bridge.onsizechange = async ({ height }) => { if (height) iframe.style.height = `${height}px`; };
  bridge.onmessage = async (params) => { say({ event: "message", params }); return {}; };
  bridge.onupdatemodelcontext = async (params) => { say({ event: "model-context", params }); return {}; };
  bridge.onloggingmessage = (params) => say({ event: "log", params });
  const initialized = new Promise<void>((resolve) => { bridge.oninitialized = () => resolve(); });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  const forward = bridge.oncalltool!;
  bridge.oncalltool = async (params, extra) => {
    say({ event: "app-tool-call", name: params.name, arguments: params.arguments ?? {} });
    if (options.refuseAppTools) {
      return { isError: true, content: [{ type: "text", text: "this host does not let views call tools" }] };
    }
    return forward(params, extra);
  };
  iframe.srcdoc = withPolicy(content.text ?? "", content._meta?.ui?.csp);
  await initialized;
  say({ event: "initialized" });
  await bridge.sendToolInput({ arguments: options.arguments });

  let result = await client.callTool({ name: tool, arguments: options.arguments }, undefined, { timeout: 60_000 });
  say({ event: "result", tool, structured: result.structuredContent ?? null, isError: Boolean(result.isError) });
  await bridge.sendToolResult(result as never);
  let outcome = result.structuredContent as Structured;
  // the model follows a pick shown in the conversation until the call ends
  while (outcome?.status === "selection_required" || (outcome?.status === "waiting")) {
    const sessionId = outcome.pick?.session_id ?? (outcome as { session_id?: string }).session_id;
    result = await client.callTool({ name: "wait_for_selection", arguments: { session_id: sessionId } }, undefined, { timeout: 60_000 });
    say({ event: "result", tool: "wait_for_selection", structured: result.structuredContent ?? null, isError: Boolean(result.isError) });
    await bridge.sendToolResult(result as never);
    const waited = result.structuredContent as Structured & { session_id?: string };
    outcome = waited?.status === "done" ? waited.ask : waited;
  }
  document.body.dataset.hostDone = "1";
  await client.close();
}

Object.assign(window, {
  hostLog,
  testHost: { run: (options: Parameters<typeof run>[0]) => run(options).catch((error) => {
    say({ event: "error", message: String(error?.message ?? error) });
    document.body.dataset.hostDone = "error";
  }) },
});
