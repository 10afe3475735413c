import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { routes } from '../../../shared/contract/routes.ts';
import {
  LGPD_TEXTS,
  PRIVACY_CONTACT_MAX_LENGTH,
  RETENTION_MONTHS_MAX,
  RETENTION_MONTHS_MIN,
  type RetentionPreview,
  type SchoolPrivacy,
} from '../../../shared/lgpd.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { countOf, formatDate, formatDateTime } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { readOf } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextAreaField, TextField } from '../../ui/text-field.tsx';

const { lgpd } = routes;
/** Names the preview lists before 'e mais N'. */
const PREVIEW_SHOWN = 8;

/** The months typed: null for blank (never), NaN for anything outside the allowed range. */
function monthsOf(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text.trim());
  return Number.isInteger(value) && value >= RETENTION_MONTHS_MIN && value <= RETENTION_MONTHS_MAX ? value : Number.NaN;
}

function PreviewList({ preview }: { preview: RetentionPreview }) {
  if (preview.total === 0) return <p className="text-sm text-slate-700">Hoje, nenhum aluno seria anonimizado.</p>;
  const rest = preview.total - Math.min(PREVIEW_SHOWN, preview.students.length);
  return (
    <div className="flex flex-col gap-2 text-sm text-slate-700">
      <p className="font-medium text-slate-900">Hoje, {countOf(preview.total, 'aluno seria anonimizado', 'alunos seriam anonimizados')}:</p>
      <ul className="flex flex-col gap-1">
        {preview.students.slice(0, PREVIEW_SHOWN).map((student) => (
          <li key={student.id} className="break-words">
            {student.name} · {student.grade} · última atividade em {formatDate(student.lastActivity)}
          </li>
        ))}
      </ul>
      {rest > 0 && <p>e mais {countOf(rest, 'aluno', 'alunos')}.</p>}
    </div>
  );
}

const RETENTION_HINT =
  `De ${RETENTION_MONTHS_MIN} a ${RETENTION_MONTHS_MAX}; em branco, nunca. ` +
  'Inativo: sem entrar no Méritus e sem nenhuma operação nesse período (ou removido há esse tempo).';

/** What the daily sweep did last, or when it starts. */
function sweepStatus(privacy: SchoolPrivacy): string {
  if (privacy.lastSweepAt) {
    const erased = countOf(privacy.lastSweepErased ?? 0, 'aluno anonimizado', 'alunos anonimizados');
    return `Última verificação em ${formatDateTime(privacy.lastSweepAt)}: ${erased}.`;
  }
  return privacy.retentionStartsAt
    ? `A primeira anonimização acontece a partir de ${formatDateTime(privacy.retentionStartsAt)}, depois uma vez por dia.`
    : 'A anonimização roda uma vez por dia.';
}

function PrivacyForm({ privacy }: { privacy: SchoolPrivacy }) {
  const client = useQueryClient();
  const [contact, setContact] = useState(privacy.contact);
  const [months, setMonths] = useState(privacy.retentionMonths === null ? '' : String(privacy.retentionMonths));
  const [preview, setPreview] = useState<{ months: number; answer: RetentionPreview } | null>(null);
  const [error, setError] = useState<string | undefined>();
  const chosen = monthsOf(months);
  // A new retention is saved only once its preview was seen (decision 030).
  const needsPreview = chosen !== null && !Number.isNaN(chosen) && chosen !== privacy.retentionMonths && preview?.months !== chosen;
  const save = useMutation({
    mutationFn: () => call(lgpd.savePrivacySettings, { body: { contact, retentionMonths: chosen } }),
    onSuccess: (saved) => {
      toast.success(LGPD_TEXTS.privacySaved);
      client.setQueryData(readOf(lgpd.privacySettings).queryKey, saved);
    },
    onError: (failure: ApiError) => toastError(failure),
  });
  const look = useMutation({
    mutationFn: (value: number) => call(lgpd.retentionPreview, { query: { months: value } }),
    onSuccess: (answer, value) => setPreview({ months: value, answer }),
    onError: (failure: ApiError) => toastError(failure),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen !== null && Number.isNaN(chosen)) return setError(ERROR_MESSAGES.invalid_retention_months);
    setError(undefined);
    if (needsPreview) look.mutate(chosen);
    else save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextAreaField
        label="Contato para privacidade"
        hint={
          <>
            Quem responde pelos dados dos alunos (nome, email, telefone). Aparece na página{' '}
            <Link to={paths.privacy} className="font-medium text-indigo-700 underline">
              Privacidade
            </Link>
            , aberta a todos a partir do login.
          </>
        }
        maxLength={PRIVACY_CONTACT_MAX_LENGTH}
        value={contact}
        onChange={(event) => setContact(event.target.value)}
      />
      <TextField
        label="Anonimizar alunos inativos após (meses)"
        hint={RETENTION_HINT}
        inputMode="numeric"
        value={months}
        onChange={(event) => {
          setMonths(event.target.value);
          setPreview(null);
        }}
        error={error}
      />
      {preview && preview.months === chosen && (
        <div className="rounded-xl bg-amber-50 p-3 ring-1 ring-amber-200">
          <PreviewList preview={preview.answer} />
          <p className="mt-2 text-sm text-amber-900">A primeira anonimização acontece um dia depois de salvar, e depois uma vez por dia.</p>
        </div>
      )}
      {privacy.retentionMonths !== null && <p className="text-sm text-slate-600">{sweepStatus(privacy)}</p>}
      <div>
        <Button type="submit" disabled={save.isPending || look.isPending}>
          {needsPreview ? 'Ver quem seria anonimizado' : 'Salvar privacidade'}
        </Button>
      </div>
    </form>
  );
}

/** Configurações › Privacidade (LGPD): the privacy page's contact and the retention of inactive students. */
export function PrivacySection() {
  const privacy = useQuery(readOf(lgpd.privacySettings));
  return (
    <Card title="Privacidade (LGPD)">
      {privacy.data ? <PrivacyForm key={JSON.stringify(privacy.data)} privacy={privacy.data} /> : <Spinner className="size-6" />}
    </Card>
  );
}
