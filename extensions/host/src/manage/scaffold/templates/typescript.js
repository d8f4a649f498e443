#!/usr/bin/env node
// Compiled from main.ts (`npm run build` rewrites this file). zot runs it
// and provides the `zot-ext` SDK.
import { Extension, Response, ToolResult } from "zot-ext";

const ext = new Extension("{{name}}", "0.1.0");

ext.command("{{name}}", "say hello from {{name}}", (_ctx, args) =>
  Response.display(`hello from {{name}}${args ? `: ${args}` : ""}`),
);

ext.tool(
  "{{tool}}",
  "Echo the given text back (a template tool: replace it with yours).",
  { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  (_ctx, args) =>
    typeof args.text === "string" ? ToolResult.text(args.text) : ToolResult.error("`text` is required and must be a string"),
);
{{panel}}
await ext.run();
