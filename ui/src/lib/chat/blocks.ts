// Splits markdown that is still being streamed into top-level blocks, so a
// long answer is rendered block by block: a block that is closed (a later
// block has begun) is rendered once and never again, and only the last,
// open block is re-rendered as deltas arrive. Re-rendering the whole
// message on every delta costs time in proportion to its length, which for
// a long answer is every frame's budget and more.
//
// A block ends at a blank line outside a fenced code block, once the next
// line shows that a new block begins there: it starts at column 0 (an
// indented line continues the block, as in a list item's second paragraph)
// and, after a list, is not another item of that list (a loose list stays
// one block). Markdown read this way can differ from the whole message read
// at once only in things a reply seldom has (a reference-style link whose
// definition is in a later block); the finished message, rendered again
// whole when its row is next mounted, is exact.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** A line start that could still become a list item once more arrives. */
const LIST_PREFIX = /^ {0,3}(?:[-*+]|\d{1,9}[.)]?)$/;

/** The blocks of a growing markdown source. Feed it the whole source so far
 * (`update`); it scans only what is new. */
export class StreamBlocks {
  /** The sources of the closed blocks, in order. Only ever appended to,
   * until the source stops growing by appending (then `reset` empties it). */
  readonly closed: string[] = [];
  #src = "";
  /** Where the first line not yet scanned starts. */
  #scan = 0;
  /** Where the open block starts. */
  #start = 0;
  /** The open fence (its marker), while inside a fenced code block. */
  #fence: string | null = null;
  /** A blank line outside a fence came since the open block's last content. */
  #blank = false;
  /** The open block has a line that is not blank. */
  #content = false;
  /** The open block began with a list item. */
  #list = false;

  /** The open block's source (everything after the closed blocks). */
  get open(): string {
    return this.#src.slice(this.#start);
  }

  /** Takes the whole source so far. If it does not extend the last one (the
   * final text was rewritten), starts over. Returns whether it started over. */
  update(source: string): boolean {
    const restart = !source.startsWith(this.#src);
    if (restart) this.reset();
    this.#src = source;
    for (let nl = source.indexOf("\n", this.#scan); nl >= 0; nl = source.indexOf("\n", this.#scan)) {
      this.#line(source.slice(this.#scan, nl), this.#scan, true);
      this.#scan = nl + 1;
    }
    // The line still arriving may already show that a new block began.
    if (this.#scan < source.length) this.#line(source.slice(this.#scan), this.#scan, false);
    return restart;
  }

  /** Forgets everything. */
  reset(): void {
    this.closed.length = 0;
    this.#src = "";
    this.#scan = this.#start = 0;
    this.#fence = null;
    this.#blank = this.#content = this.#list = false;
  }

  /** One line starting at `at`; `complete` when its newline has arrived. A
   * line still arriving only ever closes the block before it: its own state
   * (a fence it opens) is taken when it is complete. */
  #line(line: string, at: number, complete: boolean): void {
    if (this.#fence !== null) {
      if (!complete) return;
      const close = FENCE.exec(line);
      if (
        close &&
        close[1][0] === this.#fence[0] &&
        close[1].length >= this.#fence.length &&
        !line.slice(close[0].length).trim()
      )
        this.#fence = null;
      return;
    }
    if (!line.trim()) {
      if (complete && this.#content) this.#blank = true;
      return;
    }
    if (this.#blank && /^\S/.test(line)) {
      const item = LIST_ITEM.test(line);
      // Not enough of the line yet to tell whether it continues the list.
      if (this.#list && !item && !complete && LIST_PREFIX.test(line)) return;
      if (!(this.#list && item)) {
        this.closed.push(this.#src.slice(this.#start, at));
        this.#start = at;
        this.#content = this.#blank = false;
      }
    }
    if (!complete) return;
    this.#blank = false;
    if (!this.#content) this.#list = LIST_ITEM.test(line);
    this.#content = true;
    const open = FENCE.exec(line);
    if (open) this.#fence = open[1];
  }
}
