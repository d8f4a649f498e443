// The zot extension SDK for TypeScript and JavaScript (Node, tsx, Bun, Deno).
//
// An extension is a program that speaks newline-delimited JSON with zot over
// stdio. This package does the talking: it sends `hello`, waits for
// `hello_ack`, runs your `onHello` hook, announces every registration, sends
// `ready`, then runs your handlers until zot sends `shutdown`. It has no
// runtime dependencies; the frame types are generated from zot's Rust
// protocol crate (see scripts/sync-protocol.mjs).
export { Context, type DialogOptions, type DialogResult, type HostInfo } from "./context.js";
export { Extension } from "./extension.js";
export type { CommandHandler, JsonSchema, MaybePromise, ToolArgs, ToolHandler } from "./registrations.js";
export { Decision, Response, ToolResult } from "./responses.js";
export type { RunOptions } from "./runtime.js";
export { SessionState, STATE_EXT_MAX, STATE_KEY_MAX, STATE_VALUE_MAX } from "./state.js";
export { ToolCall, type Progress } from "./tool_call.js";
export type * from "./protocol/index.js";
