// The MCP App page (mcp-app.html: the viewer alone, in an MCP host's sandboxed frame; mcp_server/app_view.py serves
// it as the resource ui://scene-agent/viewer.html), built after the page (vite.config.ts) into the same dist/ as one
// self-contained HTML file: every script and style inline, nothing else to fetch (no font files: the host's are used).
import { defineConfig } from "vite";
import { viteSingleFile } from "vite-plugin-singlefile";

export default defineConfig({
  plugins: [viteSingleFile()],
  build: {
    outDir: "dist", emptyOutDir: false, target: "es2022", chunkSizeWarningLimit: 4096,
    rollupOptions: { input: "mcp-app.html" },
  },
});
