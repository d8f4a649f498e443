// The wheel over a panel whose owner declared `panel_mouse`: deltas become
// whole lines (positive = down), and while one `panel_mouse{wheel}` is on
// its way the next deltas add up instead of queueing, so a fast wheel over a
// busy extension sends one frame per round trip, never a growing queue.

/** A wheel event's vertical distance in lines (fractional). */
export function wheelLines(
  e: { deltaY: number; deltaMode: number },
  lineHeight: number,
  pageLines: number,
): number {
  // deltaMode: 0 pixels, 1 lines, 2 pages.
  if (e.deltaMode === 1) return e.deltaY;
  if (e.deltaMode === 2) return e.deltaY * pageLines;
  return e.deltaY / lineHeight;
}

/** Adds wheel distances up and sends whole lines, one send at a time. */
export class WheelCoalescer {
  #acc = 0;
  #inFlight = false;
  #send: (delta: number) => Promise<unknown>;

  constructor(send: (delta: number) => Promise<unknown>) {
    this.#send = send;
  }

  /** `lines` more (fractional; a part line waits for the next). */
  add(lines: number): void {
    this.#acc += lines;
    this.#pump();
  }

  #pump(): void {
    if (this.#inFlight) return;
    const whole = Math.trunc(this.#acc);
    if (whole === 0) return;
    this.#acc -= whole;
    this.#inFlight = true;
    void this.#send(whole)
      .catch(() => {})
      .finally(() => {
        this.#inFlight = false;
        this.#pump();
      });
  }
}
