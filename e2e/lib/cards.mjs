// The extension manager's cards, as the E2E tests read and press them.

/** The state badge of extension `name`'s card, or null when it has none. */
export function cardState(s, name) {
  return s.exec(`const c = document.querySelector('[data-test=ext-card][data-name="${name}"]');
    return c ? c.querySelector('[data-test=ext-state]').textContent : null;`);
}

/** Clicks button `test` on `name`'s card once it is there and enabled: a
 * card's state can change (from the host's event) before the manager's own
 * action has returned, and a click on a button disabled while the manager
 * is busy does nothing. */
export async function clickInCard(s, name, test) {
  const sel = `[data-test=ext-card][data-name="${name}"] [data-test=${test}]`;
  await s.until(`${test} on ${name} to be clickable`, () =>
    s.exec(`const b = document.querySelector('${sel}'); return !!b && !b.disabled;`));
  await s.click(await s.find(sel));
}
