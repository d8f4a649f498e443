// Vite builds the UI into dist/, which the release binary embeds. Vitest
// uses the same config so `.svelte.ts` state classes compile with runes.
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vitest/config";
import { criticalCss } from "./build/critical-css.ts";
import { prerender } from "./build/prerender.ts";

export default defineConfig({
  plugins: [svelte(), prerender(), criticalCss()],
  // Tauri serves the page from its own origin; relative asset URLs work
  // both there and in `vite preview`.
  base: "./",
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  build: { target: "es2022", sourcemap: false, chunkSizeWarningLimit: 2000 },
  test: {
    include: ["src/**/*.test.ts", "build/**/*.test.ts"],
    environment: "node",
    setupFiles: ["src/test-setup.ts"],
  },
  resolve: process.env.VITEST ? { conditions: ["browser"] } : undefined,
});
