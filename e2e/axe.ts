import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core on the page (WCAG 2 A/AA) and fails on any serious or critical violation.
 * It judges the screen as it settles: a toast still sliding in at half opacity would read as low contrast.
 * Endless animations (a pulsing "Ao vivo" dot, a spinner) are held still during the scan and resumed
 * after: each frame of one makes every colour-contrast probe lay the page out again (a scan of the
 * live feed took 3–4 times as long), and a still frame is one the user sees too.
 * `within` scans only part of the page: an open dialog, when the screen behind it has its own scan.
 */
export async function expectNoSeriousA11yViolations(page: Page, options: { exclude?: string[]; within?: string } = {}): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Legacy mode runs axe in the page itself. The default mode finishes every scan in a new blank page that it
  // opens and injects axe into again, which only frames from other origins need (the app has none): a scan of
  // the student dashboard took 1.25–1.6 s that way and 0.6–0.7 s this way.
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).setLegacyMode(true);
  if (options.within) builder = builder.include(options.within);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  await page.evaluate(() => {
    const held = document.getAnimations().filter((animation) => animation.playState === 'running');
    for (const animation of held) animation.pause();
    Object.assign(window, { __heldForAxe: held });
  });
  const results = await builder.analyze().finally(() =>
    page.evaluate(() => {
      for (const animation of (window as unknown as { __heldForAxe?: Animation[] }).__heldForAxe ?? []) animation.play();
    }),
  );
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = serious.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
  expect(report, JSON.stringify(report, null, 2)).toEqual([]);
}
