
const PANEL = "{{name}}-panel";
let count = 0;
const panel = () => ({ id: PANEL, title: "{{name}}", lines: [`count: ${count}`, "", "press + or - to change it"], footer: "+/- count · esc close" });

ext.command("{{name}}-panel", "open the {{name}} panel", () => Response.openPanel(panel()));

ext.onPanelKey((ctx, k) => {
  if (k.key === "esc") return ctx.closePanel(k.panel_id);
  if (k.key === "rune" && (k.text === "+" || k.text === "-")) count += k.text === "+" ? 1 : -1;
  ctx.renderPanel(panel());
});
