// The viewer's version (package.json), put in by the MCP App page's build (vite.mcp-app.config.ts).
declare const __VIEWER_VERSION__: string;
