// `make bench-ui` (progress-bench): the window's frames while a tool floods
// progress (#35, docs/performance.md "Long tool calls"). A Python extension
// (e2e/fixtures/progress-flood) answers one call with 10 000 tool_progress
// frames, each with a message, the numbers and a line of partial output,
// in batches of 100 for a second or two; the page's requestAnimationFrame
// lengths are recorded from the prompt until the card says done. The floor
// is the same window idle for as long, in the same run. Goal: no frame over
// 50 ms. ZOT_E2E_BIN names the binary; PROGRESS_BENCH_PRINT=1 prints the
// block without touching docs/performance.md.
import os from "node:os";
import path from "node:path";
import { startApp, send, ROOT } from "../lib/app.mjs";
import { sleep, ms, fstats, writeBlock, FRAME_PROBE } from "./measure.mjs";

const ROUNDS = 3;
const FLOOD = path.join(ROOT, "e2e", "fixtures", "progress-flood");
const bin = process.env.ZOT_E2E_BIN ?? "";
const build = /\/release\//.test(bin) ? "release" : "debug";

const app = await startApp({ exts: [FLOOD] });
const { s } = app;
const loadBefore = os.loadavg()[0];
const runs = [];
const floors = [];
try {
  await s.exec(FRAME_PROBE);
  for (let round = 0; round < ROUNDS; round++) {
    const before = await s.exec(`return document.querySelectorAll('[data-test=tool-card][data-tool=progress_flood]').length`);
    await s.exec(`window.__frames.list = []; window.__frames.on = true`);
    const t0 = Date.now();
    await send(s, "call the tool progress_flood");
    await s.until(
      "the flood's card to say done",
      () =>
        s.exec(`const cards = document.querySelectorAll('[data-test=tool-card][data-tool=progress_flood]');
          return cards.length > ${before} && cards[cards.length - 1].querySelector('[data-test=tool-state]').textContent === 'done';`),
      120000,
    );
    const took = Date.now() - t0;
    runs.push({ frames: await s.exec(`window.__frames.on = false; return window.__frames.list`), took });
    // The floor: the same window, idle, for as long.
    await s.until("the turn to end", () => s.exec(`return !document.querySelector('[data-test=stop]')`), 30000);
    await s.exec(`window.__frames.list = []; window.__frames.on = true`);
    await sleep(took);
    floors.push(await s.exec(`window.__frames.on = false; return window.__frames.list`));
  }
} finally {
  await app.stop();
}

const z = fstats(runs.flatMap((r) => r.frames));
const f = fstats(floors.flat());
const took = runs.map((r) => r.took).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
const block = `<!-- progress-ui-bench:start -->
Measured by \`make bench-ui\` (\`e2e/bench/progress-bench.mjs\`): the ${build} binary under Xvfb through tauri-driver, ${new Date().toISOString().slice(0, 10)}; load average ${loadBefore.toFixed(2)} before (2 shared vCPUs). ${ROUNDS} rounds of one call that sends 10 000 \`tool_progress\` frames (message, numbers, a line of partial output each) in batches of 100; the page's frame lengths (requestAnimationFrame) from the prompt to the card's "done" (median ${ms(took)}), against the same window idle for as long.

| frames | longest | p95 | p50 | over 50 ms | over 33 ms | n |
|---|---|---|---|---|---|---|
| during the flood | ${ms(z.max)} | ${ms(z.p95)} | ${ms(z.p50)} | ${z.over50} | ${z.over33} | ${z.n} |
| idle (the floor) | ${ms(f.max)} | ${ms(f.p95)} | ${ms(f.p50)} | ${f.over50} | ${f.over33} | ${f.n} |

| goal | value | |
|---|---|---|
| no frame over 50 ms during the flood | longest ${ms(z.max)} | ${z.over50 === 0 ? "met" : "**not met**"} |
<!-- progress-ui-bench:end -->
`;
console.log(block);
if (!process.env.PROGRESS_BENCH_PRINT) writeBlock("progress-ui-bench", "Long tool calls", block);
