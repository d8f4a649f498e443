// Writes a long session file (the JSONL the agent resumes with --session):
// alternating user questions and markdown answers with a code block.
import fs from "node:fs";
import path from "node:path";

/** Writes `n` messages to `dir/big-session.jsonl` and returns its path. */
export function sessionFile(dir, n) {
  const file = path.join(dir, "big-session.jsonl");
  const lines = [JSON.stringify({ type: "session", version: 1, cwd: dir })];
  for (let i = 0; i < n; i++) {
    const role = i % 2 ? "assistant" : "user";
    const text =
      role === "user"
        ? `question ${i}: how does part ${i} work?`
        : `Answer ${i}: it **works** like this.\n\n\`\`\`rust\nfn part_${i}() -> u32 { ${i} }\n\`\`\`\n\n- one\n- two`;
    lines.push(JSON.stringify({ type: "message", message: { role, content: [{ type: "text", text }] } }));
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}
