// A fake Anthropic Messages server on loopback that speaks real SSE. What it
// answers depends on the conversation, so tests can steer it by prompt:
//   "use the tool"  → a todo_manage tool call, then (after the result) text;
//   "xss"           → text full of markup and javascript: links;
//   "stream slowly" → a long answer, one delta every 100 ms, so a test can
//                     abort it mid-stream (the request records `cut: true`
//                     when the app closes the stream early);
//   "run the command" → a bash call (`echo e2e-approved`), for approvals;
//   "write outside PATH" → a write of PATH (outside the project), for the
//                     approval card's diff;
//   "edit the file PATH" → an edit of PATH (`let x = 1;` → `let x = 2;`),
//                     for the tool card's diff;
//   "run bash"      → a bash call printing 30 lines, one in ANSI red, then
//                     exiting 3, for the bash card;
//   "stream a long answer of N tokens at R tokens/s" → a markdown answer of
//                     N tokens (headings, paragraphs, lists, code blocks;
//                     longAnswer) streamed at R tokens a second, a few
//                     tokens per delta, for the streaming bench;
//   "stream every block kind" → EVERY_BLOCK (each kind of block markdown
//                     draws) three times, streamed a few characters per
//                     delta, so the row is built block by block;
//   "call the tool NAME" → a call of tool NAME with no arguments (an MCP
//                     server's tool, e.g. the fixture's ask_url);
//   "wait N s before answering" → the short answer below, N seconds after
//                     the request (a model that thinks before its first
//                     token), for the bench of the page while zot works;
//   anything else   → a short streamed markdown answer.
import http from "node:http";

/** The XSS strings the tests must see as inert text. */
export const XSS = [
  "<script>window.__pwned = 1</script>",
  '<img src=x onerror="window.__pwned = 2">',
  "[click me](javascript:window.__pwned=3)",
];

function sse(res, events, record, delayMs = 0) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const frame = ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  if (!delayMs) {
    for (const e of events) res.write(frame(e));
    res.end();
    return;
  }
  let i = 0;
  res.on("close", () => {
    if (i < events.length) record.cut = true;
  });
  const next = () => {
    if (res.destroyed) return;
    if (i === events.length) return res.end();
    res.write(frame(events[i++]));
    setTimeout(next, delayMs);
  };
  next();
}

/** A long markdown answer as `n` tokens (a word with its leading space, or
 * a piece of markdown syntax, counts as one), cycling through the shapes a
 * real answer has: a heading, paragraphs with inline code, bold and links,
 * a list, a fenced code block. */
export function longAnswer(n) {
  const out = [];
  const words = "the agent reads each file once and keeps what it learned so that the next step can use it without asking again".split(" ");
  for (let s = 0; out.length < n; s++) {
    out.push(`${s ? "\n\n" : ""}## Part`, ` ${s}`, "\n\n");
    for (let p = 0; p < 2; p++) {
      for (let w = 0; w < 60; w++) {
        const word = words[(s * 7 + p * 13 + w) % words.length];
        out.push(
          w === 17 ? " **" + word + "**" : w === 33 ? " `" + word + "()`" : w === 48 ? ` [${word}](https://example.com/${s})` : ` ${word}`,
        );
      }
      out.push(".", "\n\n");
    }
    for (let i = 0; i < 5; i++) out.push("- item", ` ${s}.${i}`, " of", " the", " list", "\n");
    out.push("\n```rust", "\n");
    for (let l = 0; l < 8; l++) out.push("fn", ` step_${s}_${l}`, "(x:", " u32)", " ->", " u32", " {", ` x + ${l}`, " }", "\n");
    out.push("```");
  }
  return out.slice(0, n);
}

/** An answer with each kind of block the renderer draws, in the orders
 * whose spacing could differ: headings of three levels, a loose and a
 * nested list, a quote, a table, a rule and a code block. */
export const EVERY_BLOCK = [
  "# Every block",
  "Opening paragraph with `code` and **bold**.",
  "## A loose list",
  "- first item\n\n  with a second paragraph\n\n- second item",
  "### Nested",
  "1. one\n   - one a\n   - one b\n2. two",
  "> A quote that spans\n> two lines.",
  "| name | value |\n| --- | --- |\n| alpha | 1 |\n| beta | 2 |",
  "---",
  "```rust\nfn main() {}\n```",
  "Closing paragraph.",
].join("\n\n");

/** Streams `events` with the text deltas paced at `rate` tokens a second:
 * every 10 ms, one delta with the tokens due by then. */
function sseAtRate(res, events, tokens, rate, record) {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
  });
  const frame = ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  const [head, tail] = [events.slice(0, 2), events.slice(2)];
  for (const e of head) res.write(frame(e));
  const t0 = Date.now();
  let sent = 0;
  res.on("close", () => {
    if (sent < tokens.length) record.cut = true;
  });
  const tick = () => {
    if (res.destroyed) return;
    const due = Math.min(tokens.length, Math.floor(((Date.now() - t0) / 1000) * rate));
    if (due > sent) {
      const text = tokens.slice(sent, due).join("");
      sent = due;
      res.write(
        frame([
          "content_block_delta",
          {
            type: "content_block_delta",
            index: 0,
            delta: { type: "text_delta", text },
          },
        ]),
      );
    }
    if (sent < tokens.length) return void setTimeout(tick, 10);
    for (const e of tail) res.write(frame(e));
    res.end();
  };
  tick();
}

function message(blocks, stop) {
  const ev = [
    [
      "message_start",
      {
        type: "message_start",
        message: { id: "msg_fake", type: "message", role: "assistant", model: "fake", content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 0 } },
      },
    ],
  ];
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      ev.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
      for (const piece of b.text.match(/.{1,7}/gs) ?? []) {
        ev.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }]);
      }
    } else {
      ev.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } }]);
      ev.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } }]);
    }
    ev.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  ev.push(["message_delta", { type: "message_delta", delta: { stop_reason: stop }, usage: { output_tokens: 7 } }]);
  ev.push(["message_stop", { type: "message_stop" }]);
  return ev;
}

function lastUserText(messages) {
  const last = messages[messages.length - 1];
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.map((b) => (b.type === "text" ? b.text : b.type === "tool_result" ? "\u0000tool_result" : "")).join("");
}

/** Starts the server; resolves to `{url, requests, close}`. */
export async function startFakeLlm() {
  const requests = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      let json = {};
      try {
        json = JSON.parse(body || "{}");
      } catch {}
      const record = { url: req.url, body: json };
      requests.push(record);
      if (!req.url.endsWith("/messages")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: [{ id: "fake-model", type: "model" }] }));
        return;
      }
      const text = lastUserText(json.messages ?? []);
      if (text.includes("\u0000tool_result")) {
        return sse(res, message([{ type: "text", text: "The tool ran. **Done.**" }], "end_turn"));
      }
      if (/use the tool/i.test(text)) {
        return sse(
          res,
          message(
            [
              { type: "text", text: "Calling the tool." },
              { type: "tool_use", id: "toolu_e2e_1", name: "todo_manage", input: { action: "add", text: "from the model" } },
            ],
            "tool_use",
          ),
        );
      }
      const named = /call the tool (\w+)/i.exec(text);
      if (named) {
        const call = { type: "tool_use", id: `toolu_named_${requests.length}`, name: named[1], input: {} };
        return sse(res, message([call], "tool_use"));
      }
      if (/run the slow build/i.test(text)) {
        const call = { type: "tool_use", id: `toolu_slow_${requests.length}`, name: "slow_build", input: {} };
        return sse(res, message([call], "tool_use"));
      }
      if (/run the command/i.test(text)) {
        const call = { type: "tool_use", id: `toolu_bash_${requests.length}`, name: "bash", input: { command: "echo e2e-approved" } };
        return sse(res, message([call], "tool_use"));
      }
      const editPath = /edit the file (\S+)/i.exec(text);
      if (editPath) {
        const input = { path: editPath[1], old_string: "let x = 1;", new_string: "let x = 2;" };
        return sse(res, message([{ type: "tool_use", id: `toolu_edit_${requests.length}`, name: "edit", input }], "tool_use"));
      }
      if (/run bash/i.test(text)) {
        const command = "printf '\\033[31mred alert\\033[0m\\n'; seq 1 29; exit 3";
        return sse(res, message([{ type: "tool_use", id: `toolu_bash_${requests.length}`, name: "bash", input: { command } }], "tool_use"));
      }
      const outside = /write outside (\S+)/i.exec(text);
      if (outside) {
        const input = { path: outside[1], content: "alpha\nBETA\ngamma\n" };
        return sse(res, message([{ type: "tool_use", id: `toolu_write_${requests.length}`, name: "write", input }], "tool_use"));
      }
      if (/stream slowly/i.test(text)) {
        const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
        return sse(res, message([{ type: "text", text: `Slow start. ${words}` }], "end_turn"), record, 100);
      }
      const long = /stream a long answer of (\d+) tokens at (\d+) tokens\/s/i.exec(text);
      if (long) {
        // message_start and content_block_start, then the paced deltas, then the rest.
        const events = message([{ type: "text", text: "" }], "end_turn");
        return sseAtRate(res, events, longAnswer(Number(long[1])), Number(long[2]), record);
      }
      if (/stream every block kind/i.test(text)) {
        // Three times over: 33 blocks, more than two of the page's groups of 16.
        const chunks = Array(3).fill(EVERY_BLOCK).join("\n\n").match(/[^]{1,6}/g);
        return sseAtRate(res, message([{ type: "text", text: "" }], "end_turn"), chunks, 400, record);
      }
      if (/xss/i.test(text)) {
        return sse(res, message([{ type: "text", text: `Inert: ${XSS.join(" ")} \u001b[2J end` }], "end_turn"));
      }
      const short = message([{ type: "text", text: "Hello **streamed** world.\n\n```rust\nfn main() {}\n```" }], "end_turn");
      const wait = /wait (\d+) s before answering/i.exec(text);
      if (wait) return void setTimeout(() => sse(res, short), Number(wait[1]) * 1000);
      return sse(res, short);
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(r)) };
}
