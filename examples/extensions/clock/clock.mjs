#!/usr/bin/env node
// The clock example: slash commands in plain Node, no SDK, to show how
// little the protocol needs. stdout carries frames only; logs go to stderr.
import { createInterface } from "node:readline";

const emit = (frame) => process.stdout.write(JSON.stringify(frame) + "\n");
const log = (msg) => process.stderr.write(`[clock] ${msg}\n`);

emit({ type: "hello", name: "clock", version: "1.0.0", capabilities: ["commands"] });

const commands = {
  // /clock [time zone]: the current time, e.g. /clock Asia/Tokyo
  clock(args) {
    const timeZone = args || undefined;
    try {
      const now = new Date().toLocaleString("en-GB", { timeZone, dateStyle: "full", timeStyle: "long" });
      return { action: "display", display: now };
    } catch {
      return { action: "noop", error: `unknown time zone "${args}" (try Europe/Berlin or UTC)` };
    }
  },
  // /timer <seconds>: a note when the time is up (the command returns at once).
  timer(args) {
    const seconds = Number(args);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86400) {
      return { action: "noop", error: "usage: /timer <seconds> (1 to 86400)" };
    }
    emit({ type: "notify", level: "info", message: `timer set for ${seconds} s` });
    setTimeout(() => emit({ type: "notify", level: "success", message: `⏰ ${seconds} s timer done` }), seconds * 1000);
    return { action: "noop" };
  },
};

const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    log(`ignoring a line that is not JSON: ${line.slice(0, 200)}`);
    return;
  }
  switch (msg.type) {
    case "hello_ack":
      emit({ type: "register_command", name: "clock", description: "show the current time (optionally in a time zone)" });
      emit({ type: "register_command", name: "timer", description: "notify after N seconds" });
      emit({ type: "ready" });
      break;
    case "command_invoked": {
      const run = commands[msg.name];
      const response = run ? run(msg.args ?? "") : { action: "noop", error: `clock has no command /${msg.name}` };
      emit({ type: "command_response", id: msg.id, ...response });
      break;
    }
    case "shutdown":
      emit({ type: "shutdown_ack" });
      process.exit(0);
    default:
      log(`ignoring frame type ${JSON.stringify(msg.type)}`);
  }
});
rl.on("close", () => process.exit(0));
