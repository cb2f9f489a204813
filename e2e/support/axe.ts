import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe on the page as it is: every serious or critical violation, one line per element. */
export async function audit(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .options({
      rules: { 'label-content-name-mismatch': { enabled: true } },
      // Only the violations are read: axe then keeps one node per rule that passed.
      resultTypes: ['violations'],
    })
    // axe.run in the page (a third of the time of runPartial and finishRun in a blank page); it
    // skips frames of other origins, where GEM has only the brand checker's own page.
    .setLegacyMode(true)
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (node) =>
          `${where}: ${v.id} (${v.impact}) on ${node.target.join(' ')}: ${v.help}. ${v.helpUrl}\n    ${node.html.slice(0, 200)}`,
      ),
    );
}
