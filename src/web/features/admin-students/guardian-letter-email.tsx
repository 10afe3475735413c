import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Mail, Send } from 'lucide-react';
import { families } from '../../../shared/contract/families.ts';
import { mail } from '../../../shared/contract/mail.ts';
import { MAIL_TEXTS } from '../../../shared/mail-texts.ts';
import { call, isRefusal, type ApiError } from '../../lib/api.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { TextField } from '../../ui/text-field.tsx';

/**
 * 'Enviar carta por email' (decision 038): the student's letter, with a new code, to the address typed; the server
 * checks the address and queues the message with the code in one transaction. Without SMTP, says email is off.
 */
export function GuardianLetterEmail({ student }: { student: { id: string } }) {
  const client = useQueryClient();
  const status = useQuery(readOf(mail.status));
  const [email, setEmail] = useState('');
  const send = useMutation<{ message: string }, ApiError, string>({
    mutationFn: (address) => call(mail.letterEmail, { params: { id: student.id }, body: { email: address } }),
    onSuccess: (result) => {
      toast.success(result.message);
      setEmail('');
      invalidateReads(client, [families.studentGuardians]);
    },
    onError: (error) => {
      if (!error.fields?.email) toastError(error);
    },
  });
  if (!status.data) return null;
  if (!status.data.enabled)
    return (
      <p className="flex items-start gap-2 text-sm text-slate-600" data-testid="mail-disabled">
        <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {MAIL_TEXTS.disabled}
      </p>
    );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send.mutate(email);
  };
  const fieldError = isRefusal(send.error) ? send.error.fields?.email : undefined;
  return (
    <form onSubmit={onSubmit} noValidate className="mt-1 flex flex-col gap-2">
      <TextField
        label="Enviar a carta por email"
        name="guardian-email"
        type="email"
        autoComplete="off"
        placeholder="email do responsável"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={fieldError}
        hint="Um código novo vai no email; os códigos anteriores não usados deixam de valer."
      />
      <Button
        type="submit"
        variant="secondary"
        className="self-start"
        loading={send.isPending}
        icon={<Send aria-hidden="true" className="size-4" />}
      >
        Enviar carta
      </Button>
    </form>
  );
}
