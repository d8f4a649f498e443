// Which OS notifications the window sends while it is not focused. Each box
// saves at once (no Save button to forget): the backend reads the setting
// at the next event.
import type { Backend, Settings } from "../backend/backend";
import { errorMessage } from "../backend/errors";
import type { NotificationSettings } from "../bindings/NotificationSettings";

/** The three kinds, in the order Settings lists them. */
export const KINDS: { key: keyof NotificationSettings; label: string }[] = [
  { key: "turn_end", label: "A turn ends" },
  { key: "approval", label: "A tool call waits for your approval" },
  { key: "extension_crash", label: "An extension crashes or fails to start" },
];

/** Every kind off: the default until the user turns one on. */
export const ALL_OFF: NotificationSettings = { turn_end: false, approval: false, extension_crash: false };

/** The boxes' state and saving; `settings` is the app's, updated on save. */
export class NotificationPrefs {
  readonly #backend: Backend;
  readonly #onSaved: (s: Settings) => void;
  values: NotificationSettings = $state({ ...ALL_OFF });
  /** Said after a save, or why it failed. */
  message = $state("");

  constructor(backend: Backend, initial: NotificationSettings | undefined, onSaved: (s: Settings) => void) {
    this.#backend = backend;
    this.#onSaved = onSaved;
    this.values = { ...ALL_OFF, ...initial };
  }

  /** Turns one kind on or off and saves; on failure the box goes back. */
  async set(key: keyof NotificationSettings, on: boolean): Promise<void> {
    const before = { ...this.values };
    this.values = { ...before, [key]: on };
    this.message = "";
    try {
      const saved = await this.#backend.saveSettings({ notifications: this.values });
      this.#onSaved(saved);
      this.values = { ...ALL_OFF, ...saved.notifications };
      this.message = "Saved.";
    } catch (e) {
      this.values = before;
      this.message = `Not saved: ${errorMessage(e)}`;
    }
  }
}
