// {{name}}: a zot extension, made by `zot ext new`. main.js is this file
// compiled (`npm run build`); zot runs main.js and provides the `zot-ext`
// SDK when it starts it. Try it: `zot --ext .`, then type /{{name}}.
import { Extension, Response, ToolResult, type Context } from "zot-ext";

const ext = new Extension("{{name}}", "0.1.0");

ext.command("{{name}}", "say hello from {{name}}", (_ctx: Context, args: string) =>
  Response.display(`hello from {{name}}${args ? `: ${args}` : ""}`),
);

ext.tool(
  "{{tool}}",
  "Echo the given text back (a template tool: replace it with yours).",
  { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  (_ctx: Context, args) =>
    typeof args.text === "string" ? ToolResult.text(args.text) : ToolResult.error("`text` is required and must be a string"),
);
{{panel}}
await ext.run();
