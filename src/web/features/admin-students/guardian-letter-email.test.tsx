import { expect, test } from 'vitest';
import { routes } from '../../../shared/contract/routes.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { queryKeyOf } from '../../lib/query-keys.ts';
import { renderWithAnswers as render } from '../../test/static-render.tsx';
import { GuardianLetterEmail } from './guardian-letter-email.tsx';

/** The letter by email (decision 038): a server without SMTP says email is off and offers nothing. */

const OFF = ERROR_MESSAGES.mail_disabled;

test('the letter by email says email is off, with no address field; with email on, the field and its button', () => {
  const key = queryKeyOf(routes.mail.status);
  const student = { id: '00000000-0000-4000-8000-000000000001' };
  const off = render([[key, { enabled: false }]], <GuardianLetterEmail student={student} />);
  expect(off.querySelector('[data-testid="mail-disabled"]')?.textContent).toBe(OFF);
  expect(off.querySelector('input')).toBeNull();
  const on = render([[key, { enabled: true }]], <GuardianLetterEmail student={student} />);
  expect(on.querySelector('input[type="email"]')).not.toBeNull();
  expect(on.querySelector('button[type="submit"]')?.textContent).toContain('Enviar carta');
});
