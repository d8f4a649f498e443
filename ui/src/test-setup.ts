// Runs in every test file. A test that sends a prompt starts loading the
// markdown renderer in the background (app.svelte.ts), and a file that
// ends with that import still in flight fails the whole run: vitest tears
// the module loader down under it ("Cannot load … after the environment
// was torn down", seen on a loaded CI machine). Each file waits for it.
import { afterAll } from "vitest";
import { markdownRenderer } from "./lib/chat/renderer.svelte";

afterAll(() => markdownRenderer.settled());
