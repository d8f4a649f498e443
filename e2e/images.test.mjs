// Images in prompts, in the real window: a pasted PNG becomes a thumbnail
// chip and goes to the model with the prompt; a dropped image of an unknown
// type or over the size limit is refused at once with the rule in words.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, shot } from "./lib/app.mjs";

let app;
let s;
before(async () => {
  app = await startApp({});
  s = app.s;
});
after(async () => app?.stop());

// A 1×1 PNG.
const DOT =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Dispatches a synthetic paste or drop of one file on the editor. */
const offer = (kind, name, type, { base64, size }) =>
  s.exec(
    `const [kind, name, type, base64, size] = arguments;
     const bytes = base64 ? Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) : new Uint8Array(size);
     const dt = new DataTransfer();
     dt.items.add(new File([bytes], name, { type }));
     const editor = document.querySelector('[data-test=editor]');
     const ev = kind === 'paste'
       ? new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })
       : new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
     editor.dispatchEvent(ev);
     return ev.defaultPrevented;`,
    [kind, name, type, base64 ?? null, size ?? 0],
  );

const refused = async () => (await s.texts("[data-test=image-refused]")).join("");

test("a pasted PNG is a chip and reaches the model with the prompt", async () => {
  await s.until("the editor", () => s.exec(`return !!document.querySelector('[data-test=editor]')`));
  assert.equal(await offer("paste", "dot.png", "image/png", { base64: DOT }), true);
  await s.until("the chip", async () => (await s.texts("[data-test=image-chip]")).length === 1);
  await shot(s, "image-chip.png");
  await send(s, "what is in this picture?");
  await s.until("the answer", async () =>
    (await s.texts(".row-assistant")).join("").includes("streamed world"),
  );
  const req = app.llm.requests.find((r) => JSON.stringify(r.body ?? r).includes("what is in this picture?"));
  assert.ok(req, "the prompt reached the model");
  const blocks = JSON.stringify(req.body ?? req);
  assert.ok(blocks.includes(DOT), "the image data went with it");
  assert.ok(blocks.includes('"media_type":"image/png"'));
  assert.equal((await s.texts("[data-test=image-chip]")).length, 0, "chips clear once sent");
  const sent = await s.exec(
    `return [...document.querySelectorAll('.row-user [data-test=sent-images] img')].map((i) => i.getAttribute('src'))`,
  );
  assert.deepEqual(sent, [`data:image/png;base64,${DOT}`], "the user row shows the image it sent");
});

test("an unknown type and an oversized image are refused with the rule", async () => {
  await offer("drop", "scan.tiff", "image/tiff", { size: 10 });
  await s.until("the type refusal", async () =>
    (await refused()).includes("PNG, JPEG, GIF or WebP; this one is image/tiff"),
  );
  await offer("drop", "huge.png", "image/png", { size: 6 * 1024 * 1024 });
  await s.until("the size refusal", async () => (await refused()).includes("over the limit of 5 MiB"));
  assert.equal((await s.texts("[data-test=image-chip]")).length, 0);
});
