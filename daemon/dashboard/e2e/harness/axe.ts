// axe-core's violations on a page, one line each (rule, impact, the first three elements).
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function axe(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}) ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
}
