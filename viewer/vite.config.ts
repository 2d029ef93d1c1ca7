// Vite builds the page into dist/, which `scene-agent serve` serves at /.
// `npm run dev` serves it with hot reload and forwards the API to a running `scene-agent serve`
// (set SCENE_AGENT_VIEWER_URL=http://localhost:5173/ there so its CORS origin and URLs match).
import { defineConfig } from "vite";

const api = process.env.SCENE_AGENT_API ?? "http://127.0.0.1:8090";

export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 1024 },
  server: { proxy: { "/api": api, "/manifests": api } },
});
