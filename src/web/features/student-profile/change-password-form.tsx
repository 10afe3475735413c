import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Eye, EyeOff } from 'lucide-react';
import { routes } from '../../../shared/contract/routes.ts';
import { changeOwnPasswordInput, OWN_PASSWORD_TEXTS, type ChangeOwnPasswordInput } from '../../../shared/student-access.ts';
import { issueFields } from '../../../shared/validation.ts';
import { call, isRefusal, type ApiError } from '../../lib/api.ts';
import { FormAlert } from '../../ui/form-alert.tsx';
import { TextField } from '../../ui/text-field.tsx';

export function useChangeOwnPassword() {
  return useMutation<{ message: string }, ApiError, ChangeOwnPasswordInput>({
    mutationFn: (body) => call(routes.auth.changePassword, { body }),
  });
}

function PasswordInput({
  label,
  value,
  onChange,
  error,
  autoComplete,
  visible,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  autoComplete: 'current-password' | 'new-password';
  visible: boolean;
}) {
  return (
    <TextField
      label={label}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      aria-required="true"
      maxLength={200}
    />
  );
}

/**
 * The current password and the new one twice, checked with the schema the server uses (the same rules as every student
 * password); the server's refusal of a field shows under it. `onChanged` once the server has taken it.
 */
export function ChangePasswordForm({
  formId,
  currentLabel = OWN_PASSWORD_TEXTS.current,
  change,
  onChanged,
}: {
  formId: string;
  currentLabel?: string;
  change: ReturnType<typeof useChangeOwnPassword>;
  onChanged: (message: string) => void;
}) {
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', repeat: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [visible, setVisible] = useState(false);
  const refused = isRefusal(change.error) ? (change.error.fields ?? { body: change.error.message }) : {};
  const shown: Record<string, string | undefined> = { ...refused, ...errors };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { currentPassword: values.currentPassword, newPassword: values.newPassword };
    const parsed = changeOwnPasswordInput.safeParse(input);
    const found = parsed.success ? {} : issueFields(parsed.error.issues);
    if (!found.newPassword && values.repeat !== values.newPassword) found.repeat = OWN_PASSWORD_TEXTS.mismatch;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.reset();
    change.mutate(input, { onSuccess: (result) => onChanged(result.message) });
  };
  const set = (field: keyof typeof values) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  return (
    <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <PasswordInput
        label={currentLabel}
        value={values.currentPassword}
        onChange={set('currentPassword')}
        error={shown.currentPassword}
        autoComplete="current-password"
        visible={visible}
      />
      <PasswordInput
        label={OWN_PASSWORD_TEXTS.next}
        value={values.newPassword}
        onChange={set('newPassword')}
        error={shown.newPassword}
        autoComplete="new-password"
        visible={visible}
      />
      <PasswordInput
        label={OWN_PASSWORD_TEXTS.repeat}
        value={values.repeat}
        onChange={set('repeat')}
        error={shown.repeat}
        autoComplete="new-password"
        visible={visible}
      />
      <button
        type="button"
        onClick={() => setVisible((current) => !current)}
        aria-pressed={visible}
        className={
          'inline-flex items-center gap-2 self-start rounded-lg px-1 py-1 text-sm font-medium text-indigo-700 ' +
          'hover:text-indigo-900 focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none'
        }
      >
        {visible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
        {visible ? 'Ocultar senhas' : 'Mostrar senhas'}
      </button>
      <FormAlert message={shown.body} />
    </form>
  );
}
