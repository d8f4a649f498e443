// How big the user made the docks: the side dock's width and the bottom
// dock's height, remembered by the backend across restarts
// (src-tauri/src/dock_sizes.rs). A drag changes them on every pointer
// move; they are saved once it pauses. Clamping to the window is the
// docks' own (placement.ts), on what is shown, so a size remembered in a
// bigger window is kept for it.
import type { Backend, DockSizes } from "../backend/backend";

/** The side dock's width before the user sizes it. */
export const SIDE_WIDTH = 340;
/** A drag is saved once it has paused this long (ms). */
const SAVE_AFTER = 300;

export class DockSizesState {
  side = $state(SIDE_WIDTH);
  /** The bottom dock's body height once the user sized it; until then it
   * grows with its lines. */
  bottom: number | null = $state(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #unsaved: DockSizes = {};

  constructor(private readonly backend: Backend) {}

  /** The sizes remembered (at start); a size the user already set wins. */
  async load(): Promise<void> {
    const s = await this.backend.dockSizes();
    if (s.side_width && this.#unsaved.side_width === undefined) this.side = s.side_width;
    if (s.bottom_height && this.#unsaved.bottom_height === undefined) this.bottom = s.bottom_height;
  }

  setSide(px: number): void {
    this.side = px;
    this.#save({ side_width: Math.round(px) });
  }

  setBottom(px: number): void {
    this.bottom = px;
    this.#save({ bottom_height: Math.round(px) });
  }

  #save(s: DockSizes): void {
    this.#unsaved = { ...this.#unsaved, ...s };
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.flush(), SAVE_AFTER);
  }

  /** Saves what changed now (a pause in the drag, or a test). */
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const s = this.#unsaved;
    this.#unsaved = {};
    if (s.side_width !== undefined || s.bottom_height !== undefined) await this.backend.setDockSizes(s);
  }
}
