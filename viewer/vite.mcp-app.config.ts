// The MCP App page (mcp-app.html: the viewer alone, in an MCP host's sandboxed frame; mcp_server/app_view.py serves
// it as the resource ui://scene-agent/viewer.html), built after the page (vite.config.ts) into the same dist/ as one
// self-contained HTML file: every script and style inline, nothing else to fetch (no font files: the host's are used).
import { readFileSync } from "node:fs";
import { defineConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf-8")) as { version: string };

export default defineConfig({
  plugins: [viteSingleFile()],
  define: { __VIEWER_VERSION__: JSON.stringify(version) }, // the version the page tells the host (mcpApp/main.ts)
  build: {
    outDir: "dist", emptyOutDir: false, target: "es2022", chunkSizeWarningLimit: 4096,
    rollupOptions: { input: "mcp-app.html" },
  },
});
