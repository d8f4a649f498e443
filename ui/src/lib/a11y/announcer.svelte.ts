// The live regions' text. Saying the same sentence twice in a row would be
// ignored by screen readers (the region's text would not change), so each
// message alternates a trailing zero-width space.
import { announcement, type Announcement } from "./announce";
import type { UiEvent } from "../bindings/UiEvent";

/** Reactive text of the polite and the assertive live region. */
export class AnnouncerState {
  polite = $state("");
  assertive = $state("");
  #flip = false;

  say(a: Announcement): void {
    this.#flip = !this.#flip;
    const text = a.text + (this.#flip ? "\u200b" : "");
    if (a.urgent) this.assertive = text;
    else this.polite = text;
  }

  /** Announces what `e` means to a listener, if anything. */
  event(e: UiEvent): void {
    const a = announcement(e);
    if (a) this.say(a);
  }
}
