import { expect, test } from 'vitest';
import { routes } from '../../../shared/contract/routes.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { queryKeyOf } from '../../lib/query-keys.ts';
import { renderWithAnswers as render } from '../../test/static-render.tsx';
import { WeeklySummarySwitch } from './weekly-summary-switch.tsx';

/** The family area's email switch (decision 038): a server without SMTP says email is off and offers nothing. */

const OFF = ERROR_MESSAGES.mail_disabled;

test('the family area says email is off, with no switch; with email on, the switch shows the choice', () => {
  const key = queryKeyOf(routes.mail.familyPreferences);
  const off = render([[key, { enabled: false, weeklySummary: true }]], <WeeklySummarySwitch />);
  expect(off.querySelector('[data-testid="mail-disabled"]')?.textContent).toBe(OFF);
  expect(off.querySelector('input[type="checkbox"]')).toBeNull();
  const on = render([[key, { enabled: true, weeklySummary: false }]], <WeeklySummarySwitch />);
  expect(on.querySelector('[data-testid="mail-disabled"]')).toBeNull();
  expect(on.querySelector<HTMLInputElement>('input[type="checkbox"]')?.checked).toBe(false);
});
