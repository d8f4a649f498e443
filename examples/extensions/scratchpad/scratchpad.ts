// The scratchpad example: commands and an LLM tool with the TypeScript SDK.
// Notes are kept in scratchpad.md in the extension's data dir, so the user
// and the model share one scratchpad across sessions.
import { appendFileSync, existsSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { Extension, Response, ToolResult, type Context } from "zot-ext";

const ext = new Extension("scratchpad", "1.0.0");
let file = "";

const read = (): string[] =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l.startsWith("- ")).map((l) => l.slice(2)) : [];

const append = (note: string) => appendFileSync(file, `- ${note.replace(/\s*\n\s*/g, " ")}\n`);

const clear = () => {
  // Rename over the old file so a crash never leaves half of it.
  writeFileSync(`${file}.tmp`, "");
  renameSync(`${file}.tmp`, file);
};

const show = (notes: string[]) => (notes.length ? notes.map((n, i) => `${i + 1}. ${n}`).join("\n") : "(scratchpad is empty)");

ext.onHello((_ext, host) => {
  file = join(host.data_dir, "scratchpad.md");
});

ext
  .command("scratch", "add a note (/scratch <text>) or show the scratchpad (/scratch)", (_ctx: Context, args: string) => {
    if (!args) return Response.display(show(read()));
    append(args);
    return Response.display(`noted (${read().length} in the scratchpad)`);
  })
  .command("scratch-clear", "empty the scratchpad", (ctx: Context) => {
    clear();
    ctx.notify("scratchpad cleared", "success");
    return Response.noop();
  })
  .command("scratch-ask", "ask the agent to act on the scratchpad", () => {
    const notes = read();
    if (!notes.length) return Response.error("the scratchpad is empty: add notes with /scratch <text>");
    return Response.prompt(`Here are my scratchpad notes:\n${show(notes)}\nTurn them into a short plan.`);
  });

ext.tool(
  "scratchpad",
  "Read, append to, or clear the user's scratchpad of short notes.",
  {
    type: "object",
    properties: {
      action: { type: "string", enum: ["read", "append", "clear"] },
      text: { type: "string", description: "the note to append" },
    },
    required: ["action"],
  },
  (_ctx, args) => {
    switch (args.action) {
      case "read":
        return ToolResult.text(show(read()));
      case "append":
        if (typeof args.text !== "string" || !args.text.trim()) return ToolResult.error('"append" needs a non-empty "text"');
        append(args.text.trim());
        return ToolResult.text(`appended; the scratchpad now holds:\n${show(read())}`);
      case "clear":
        clear();
        return ToolResult.text("cleared");
      default:
        return ToolResult.error(`unknown action ${JSON.stringify(args.action)}; use read, append or clear`);
    }
  },
);

await ext.run();
