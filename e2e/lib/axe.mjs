// Accessibility checks with axe-core (installed in ui/node_modules): the
// library is injected into the real page and run there, and the serious
// and critical violations come back with their rule, impact and targets.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./app.mjs";

const AXE = fs.readFileSync(path.join(ROOT, "ui", "node_modules", "axe-core", "axe.min.js"), "utf8");

/** Violations of `impact` serious or critical on the page as it is now. */
export async function axeViolations(s) {
  const loaded = await s.exec(`return typeof window.axe !== "undefined"`);
  if (!loaded) await s.exec(`${AXE}\nreturn true;`);
  const result = await s.execAsync(`
    const done = arguments[arguments.length - 1];
    window.axe
      .run(document, { resultTypes: ["violations"] })
      .then((r) => done(r.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
          targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }))))
      .catch((e) => done([{ id: "axe-error", impact: "critical", help: String(e), targets: [] }]));
  `);
  return result;
}

/** A readable list for an assertion message. */
export function describeViolations(vs) {
  return vs.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.targets.join("\n    ")}`).join("\n");
}
