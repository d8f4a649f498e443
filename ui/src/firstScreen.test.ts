// @vitest-environment jsdom
// The prerendered first screen against the app that hydrates it, in
// Svelte's dev build (the one that warns about mismatches): the screen is
// rendered the way the build does it (build/prerender.ts: Vite's server
// renderer loading firstScreen.ts), put into a page, and the client's App
// hydrates it. No hydration warning, and every element of the screen kept.
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { createServer, type ViteDevServer } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { flushSync, hydrate, unmount } from "svelte";
import App from "./App.svelte";
import { AppState } from "./lib/app.svelte";
import { FakeBackend } from "./lib/backend/fake";

let server: ViteDevServer;
beforeAll(async () => {
  // Not vite.config.ts: under Vitest it resolves Svelte's browser build.
  server = await createServer({
    configFile: false,
    // The server side as the build renders it (production); the client side
    // below is Vitest's dev build, which warns.
    plugins: [svelte({ compilerOptions: { dev: false } })],
    root: process.cwd(),
    logLevel: "error",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
});
afterAll(() => server?.close());

test("the app hydrates its prerendered first screen without a mismatch or a redrawn element", async () => {
  const { firstScreen } = (await server.ssrLoadModule(
    "/src/firstScreen.ts",
  )) as typeof import("./firstScreen");
  const { body } = firstScreen();
  document.body.innerHTML = `<div id="app">${body}</div>`;
  const target = document.getElementById("app")!;
  const before = [...target.querySelectorAll("*")];
  expect(before.length).toBeGreaterThan(20);
  // What jsdom lacks and the mounted app uses.
  globalThis.ResizeObserver ??= class {
    observe() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  window.matchMedia ??= ((query: string) => ({
    matches: query.includes("dark"),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  })) as unknown as typeof window.matchMedia;
  const warn = vi.spyOn(console, "warn");
  const error = vi.spyOn(console, "error");
  const app = hydrate(App, { target, props: { app: new AppState(new FakeBackend()) } });
  flushSync();
  expect(warn.mock.calls.flat().join("\n")).not.toMatch(/hydrat/i);
  expect(error).not.toHaveBeenCalled();
  expect(before.filter((el) => !el.isConnected).map((el) => el.outerHTML.slice(0, 80))).toEqual([]);
  // Nor added: the same elements, in the same order.
  const after = [...target.querySelectorAll("*")];
  expect(after.length).toBe(before.length);
  expect(after.every((el, i) => el === before[i])).toBe(true);
  void unmount(app);
}, 30000);
