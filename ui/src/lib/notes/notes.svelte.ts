// The notes under the transcript: one-shot lines from extensions (`notify`
// and `display`). They clear on the next prompt, on Esc and on /clear;
// `clear_notes` drops only the sending extension's notes. An extension that
// floods keeps only its last MAX_PER_EXTENSION notes (the backend already
// drops beyond its queue and says so), and the list renders a window of the
// newest WINDOW notes, growing on request, so a full list never costs
// thousands of DOM rows.
import type { NoteLevel } from "../bindings/NoteLevel";

/** One note as shown. */
export interface Note {
  id: number;
  extension: string;
  level: NoteLevel;
  text: string;
  /** `display` text is styled as a message rather than a status line. */
  display: boolean;
}

/** Notes kept per extension; older ones of that extension make room. */
export const MAX_PER_EXTENSION = 200;
/** Notes rendered at first; "show earlier" adds this many more. */
export const WINDOW = 50;

/** Reactive list of notes. */
export class NotesState {
  items: Note[] = $state([]);
  /** How many of the newest notes are rendered. */
  shown = $state(WINDOW);
  #next = 1;
  /** Notes held per extension (mirrors `items`). */
  #count = new Map<string, number>();

  /** The notes to render: the newest `shown`. */
  get visible(): Note[] {
    return this.items.length > this.shown ? this.items.slice(-this.shown) : this.items;
  }

  /** Notes held but not rendered. */
  get hidden(): number {
    return Math.max(0, this.items.length - this.shown);
  }

  /** Renders `WINDOW` more of the older notes. */
  showMore(): void {
    this.shown += WINDOW;
  }

  /** A `notify` frame. */
  notify(extension: string, level: NoteLevel, text: string): void {
    this.#add({ id: this.#next++, extension, level, text, display: false });
  }

  /** A `display` action. */
  display(extension: string, text: string): void {
    this.#add({ id: this.#next++, extension, level: "info", text, display: true });
  }

  #add(note: Note): void {
    const n = this.#count.get(note.extension) ?? 0;
    if (n >= MAX_PER_EXTENSION) {
      const oldest = this.items.findIndex((x) => x.extension === note.extension);
      if (oldest >= 0) this.items.splice(oldest, 1);
    } else {
      this.#count.set(note.extension, n + 1);
    }
    this.items.push(note);
  }

  /** `clear_notes` from one extension: the others' notes stay. */
  clearExtension(extension: string): void {
    this.items = this.items.filter((n) => n.extension !== extension);
    this.#count.delete(extension);
  }

  /** Next prompt, Esc, /clear. */
  clearAll(): void {
    this.items = [];
    this.#count.clear();
    this.shown = WINDOW;
  }
}
