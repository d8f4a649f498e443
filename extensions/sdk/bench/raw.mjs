// The quick-start loop in Node (as in the clock example), answering tool
// calls: the floor the TypeScript SDK is measured against.
import { createInterface } from "node:readline";

const emit = (f) => process.stdout.write(JSON.stringify(f) + "\n");
emit({ type: "hello", name: "bench", version: "1.0.0", capabilities: ["tools"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello_ack") {
    emit({ type: "register_tool", name: "echo", description: "echo", schema: { type: "object" } });
    emit({ type: "ready" });
  } else if (msg.type === "tool_call") {
    emit({ type: "tool_result", id: msg.id, content: [{ type: "text", text: msg.args.text ?? "" }] });
  } else if (msg.type === "shutdown") {
    emit({ type: "shutdown_ack" });
    process.exit(0);
  }
});
