// The notes under the transcript: one-shot lines from extensions (`notify`
// and `display`). They clear on the next prompt, on Esc and on /clear;
// `clear_notes` drops only the sending extension's notes.
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

/** Reactive list of notes. */
export class NotesState {
  items: Note[] = $state([]);
  #next = 1;

  /** A `notify` frame. */
  notify(extension: string, level: NoteLevel, text: string): void {
    this.items.push({ id: this.#next++, extension, level, text, display: false });
  }

  /** A `display` action. */
  display(extension: string, text: string): void {
    this.items.push({ id: this.#next++, extension, level: "info", text, display: true });
  }

  /** `clear_notes` from one extension: the others' notes stay. */
  clearExtension(extension: string): void {
    this.items = this.items.filter((n) => n.extension !== extension);
  }

  /** Next prompt, Esc, /clear. */
  clearAll(): void {
    this.items = [];
  }
}
