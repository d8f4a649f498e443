// The floor of the streaming case: what WebKit on this machine costs to
// show the same answer growing at the same rate and followed at the
// bottom, with nothing of zot's in the way. The page scripts below lay a
// scroller with the transcript's size, place and classes over it and feed
// it the fake server's tokens on the same clock (a batch every 10 ms);
// every DRAW_MS it shows what has arrived, each block (text between blank
// lines) as one plain element holding its source text, the last one
// replaced as it grows, and scrolls to the bottom. zot's transcript under
// it is hidden, so it is not painted as well. No IPC, no markdown,
// no Svelte: what is left is layout, paint and the window, which zot
// cannot do without. Its frames are timed by the bench's own probe.

/** As often as zot draws a streamed answer's open block (OPEN_BLOCK_MS in
 * ui/src/lib/chat/Markdown.svelte), so both paint as often. */
const DRAW_MS = 30;

/** The page script that lays the floor over the transcript and hands it
 * its tokens: run before the frames are timed, as parsing them and
 * painting the empty floor take long frames of their own. */
export function streamFloorSetup(tokens) {
  return `
    const transcript = document.querySelector('[data-test=transcript]');
    const t = transcript.getBoundingClientRect();
    // WebKit paints what lies under an opaque element too: hide zot's own.
    transcript.style.visibility = 'hidden';
    const sc = document.createElement('div');
    sc.className = 'transcript';
    sc.dataset.test = 'stream-floor';
    Object.assign(sc.style, { position: 'fixed', left: t.left + 'px', top: t.top + 'px', width: t.width + 'px',
      height: t.height + 'px', background: 'var(--zot-background)', zIndex: 50 });
    sc.innerHTML = '<div class="transcript-inner"><div class="slot"><div class="row row-assistant"><div class="markdown"></div></div></div></div>';
    document.body.append(sc);
    window.__floor = { sc, md: sc.querySelector('.markdown'), tokens: ${JSON.stringify(tokens)}, done: false };`;
}

/** The page script that starts the floor (after streamFloorSetup);
 * `window.__floor.done` turns true once the last token is drawn. */
export function streamFloorStart(rate) {
  return `
    const floor = window.__floor;
    const { sc, md, tokens } = floor;
    const t0 = performance.now();
    let fed = 0, text = '';
    const feed = setInterval(() => {
      const due = Math.min(tokens.length, Math.floor(((performance.now() - t0) / 1000) * ${rate}));
      while (fed < due) text += tokens[fed++];
      if (fed === tokens.length) clearInterval(feed);
    }, 10);
    /** The source's kind of block, as a plain element showing its text. */
    const element = (src) => {
      const e = document.createElement(src.startsWith('\`\`\`') ? 'pre' : src.startsWith('#') ? 'h2' : src.startsWith('- ') ? 'ul' : 'p');
      e.textContent = src;
      return e;
    };
    let closedEnd = 0, open = null, drawn = -1, lastDraw = -Infinity;
    const draw = (now) => {
      if (text.length !== drawn && now - lastDraw >= ${DRAW_MS}) {
        lastDraw = now;
        drawn = text.length;
        // The answer's code blocks hold no blank line, so blank lines end blocks.
        for (let end = text.indexOf('\\n\\n', closedEnd); end >= 0; end = text.indexOf('\\n\\n', closedEnd)) {
          open?.remove();
          open = null;
          md.append(element(text.slice(closedEnd, end)));
          closedEnd = end + 2;
        }
        open?.remove();
        const rest = text.slice(closedEnd);
        open = rest.trim() ? md.appendChild(element(rest)) : null;
        sc.scrollTop = sc.scrollHeight;
      }
      if (fed === tokens.length && drawn === text.length) floor.done = true;
      else requestAnimationFrame(draw);
    };
    requestAnimationFrame(draw);`;
}
