// Settings › Permissions: every rule remembered by "Always allow" (or
// written by hand in config.json), grouped for reading, each revocable.
// The backend owns the words and the file; this only lists and asks.
import type { Backend } from "../backend/backend";
import { errorMessage } from "../backend/errors";
import type { RememberedRule } from "../bindings/RememberedRule";
import type { RuleKind } from "../bindings/RuleKind";

/** One group of the page, in the order it is shown. */
export interface RuleGroup {
  title: string;
  rules: RememberedRule[];
}

const GROUPS: { title: string; kinds: RuleKind[] }[] = [
  { title: "Commands", kinds: ["bash"] },
  { title: "Files and folders", kinds: ["folder"] },
  { title: "Tools", kinds: ["tool"] },
  { title: "Extensions", kinds: ["extension_tool", "trust_read_only"] },
];

/** The rules in the page's groups; empty groups are left out. */
export function groupRules(rules: RememberedRule[]): RuleGroup[] {
  return GROUPS.map((g) => ({ title: g.title, rules: rules.filter((r) => g.kinds.includes(r.kind)) })).filter(
    (g) => g.rules.length > 0,
  );
}

/** A stable key for a rule (the backend names a rule by these fields). */
export function ruleKey(r: RememberedRule): string {
  return [r.kind, r.extension ?? "", r.tool ?? "", r.value].join("\u0000");
}

export class PermissionsState {
  rules: RememberedRule[] = $state([]);
  /** Why config.json's rules cannot be used, when they cannot. */
  problem = $state("");
  /** What the last revoke did, or why it failed. */
  message = $state("");
  busy = $state(false);

  constructor(private backend: Backend) {}

  async load(): Promise<void> {
    try {
      const r = await this.backend.rpc({ type: "approval_rules" });
      this.rules = r.rules;
      this.problem = r.problem ?? "";
    } catch (e) {
      this.message = `could not read the remembered rules: ${errorMessage(e)}`;
    }
  }

  async revoke(rule: RememberedRule): Promise<void> {
    this.busy = true;
    this.message = "";
    try {
      const r = await this.backend.rpc({ type: "approval_rule_forget", rule });
      this.rules = r.rules;
      this.message = `Revoked: ${rule.words}. The next such call asks again.`;
    } catch (e) {
      this.message = errorMessage(e);
      await this.load();
    } finally {
      this.busy = false;
    }
  }
}
