// The markdown renderer (markdown-it, highlight.js and DOMPurify: three
// quarters of the UI's JavaScript) is loaded on first use instead of at
// start-up, so the window paints without parsing and running it, and an
// idle window that has shown no assistant text never holds it. Until it has
// loaded (a few ms, once), a message shows its source as plain text.
import type * as Renderer from "./markdown";

/** Loads the renderer once; `renderer` is reactive and null until then. */
class RendererLoader {
  renderer: typeof Renderer | null = $state.raw(null);
  #loading: Promise<typeof Renderer> | null = null;

  /** Starts loading (once) and resolves to the renderer. */
  load(): Promise<typeof Renderer> {
    this.#loading ??= import("./markdown").then((m) => (this.renderer = m));
    return this.#loading;
  }

  /** Resolves once a load that was started has finished, loaded or not
   * (a failed load leaves messages as plain text); at once if none was.
   * The UI's tests end each file on it (src/test-setup.ts). */
  async settled(): Promise<void> {
    await this.#loading?.catch(() => undefined);
  }
}

/** The one loader the markdown rows share. */
export const markdownRenderer = new RendererLoader();
