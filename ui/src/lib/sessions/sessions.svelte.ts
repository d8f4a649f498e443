// The sessions sidebar's state: the project's sessions (newest first, from
// `session_list`), the search, and the one row being renamed or deleted.
// Every action goes to the backend and then reloads the list, so what is
// shown is what is on disk.
import type { AppState } from "../app.svelte";
import type { SessionInfo } from "../bindings/SessionInfo";
import { errorMessage } from "../backend/errors";

/** A date as the sidebar shows it: time today, weekday this week, else the date. */
export function when(ms: number, now: number = Date.now()): string {
  const d = new Date(ms);
  const today = new Date(now);
  if (d.toDateString() === today.toDateString())
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (now - ms < 6 * 24 * 3600 * 1000) return d.toLocaleDateString([], { weekday: "short" });
  return d.toLocaleDateString([], { year: "numeric", month: "short", day: "numeric" });
}

/** Reactive sidebar state. */
export class SessionsState {
  readonly app: AppState;
  open = $state(false);
  list: SessionInfo[] = $state([]);
  query = $state("");
  error: string | null = $state(null);
  /** The path being renamed, and the draft title. */
  renaming: string | null = $state(null);
  draft = $state("");
  /** The path waiting for "Delete?" to be confirmed. */
  confirmDelete: string | null = $state(null);
  /** A session that can only open as a copy: its path and why. */
  offerCopy: { path: string; why: string } | null = $state(null);
  #seq = 0;

  constructor(app: AppState) {
    this.app = app;
  }

  /** Reloads the list for the current query (a newer load wins). */
  async load(): Promise<void> {
    const seq = ++this.#seq;
    try {
      const q = this.query.trim();
      const data = await this.app.backend.rpc({ type: "session_list", ...(q ? { query: q } : {}) });
      if (seq === this.#seq) {
        this.list = data.sessions;
        this.error = null;
      }
    } catch (e) {
      if (seq === this.#seq) this.error = errorMessage(e);
    }
  }

  toggle(): void {
    this.open = !this.open;
    if (this.open) void this.load();
  }

  /** Resumes `path` in place of the current conversation. */
  async resume(path: string, readablePart = false): Promise<void> {
    this.error = null;
    this.offerCopy = null;
    try {
      const r = await this.app.backend.rpc({
        type: "session_open",
        path,
        ...(readablePart ? { readable_part: true } : {}),
      });
      this.app.chat.clear();
      this.app.usage = null;
      this.app.notes.clearAll();
      await this.app.loadSession();
      if (r.warning) this.app.chat.push({ kind: "status", level: "warn", text: r.warning });
    } catch (e) {
      const why = errorMessage(e);
      // A session from a newer zot: offer its readable part as a copy.
      if (why.includes("readable_part")) this.offerCopy = { path, why };
      else this.error = why;
    }
    await this.load();
  }

  /** A new, empty session (the `/clear` built-in). */
  async startNew(): Promise<void> {
    await this.app.runCommand("clear", "");
    await this.load();
  }

  startRename(s: SessionInfo): void {
    this.renaming = s.path;
    this.draft = s.title;
  }

  async finishRename(): Promise<void> {
    const path = this.renaming;
    this.renaming = null;
    if (!path) return;
    try {
      await this.app.backend.rpc({ type: "session_rename", path, title: this.draft });
    } catch (e) {
      this.error = errorMessage(e);
    }
    await this.load();
  }

  async remove(path: string): Promise<void> {
    this.confirmDelete = null;
    try {
      const r = await this.app.backend.rpc({ type: "session_delete", path });
      this.app.status.show(
        r.trashed ? "session moved to the trash" : "session deleted (no trash on this volume)",
      );
    } catch (e) {
      this.error = errorMessage(e);
    }
    await this.load();
  }
}
