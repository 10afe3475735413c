import { useId, useRef, useState } from 'react';
import { CheckCircle2, CircleAlert, Copy, Upload } from 'lucide-react';
import {
  ARCHIVE_ACCEPT,
  ARCHIVE_ERRORS_SHOWN,
  ARCHIVE_MAX_FILE_BYTES,
  ARCHIVE_TEXTS,
  ARCHIVE_UPLOAD_DEFAULTS,
  archiveUploadResult,
  type ArchiveUploadResult,
} from '../../../shared/archive.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { isApiError } from '../../lib/api.ts';
import { formatSize } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { ProgressBar } from '../../ui/progress-bar.tsx';
import { TextAreaField, TextField } from '../../ui/text-field.tsx';
import { uploadOne, useRefreshArchive, type UploadFields } from './archive-queries.ts';
import { AccessLevelSelect, CategorySelect, Checkbox } from './edit-modal.tsx';

type FileState = {
  key: string;
  file: File;
  percent: number;
  status: 'waiting' | 'sending' | 'done' | 'duplicate' | 'error';
  message?: string;
};

const DEFAULT_FIELDS: UploadFields = {
  description: ARCHIVE_UPLOAD_DEFAULTS.description,
  tags: ARCHIVE_UPLOAD_DEFAULTS.tags,
  category: ARCHIVE_UPLOAD_DEFAULTS.category,
  accessLevel: ARCHIVE_UPLOAD_DEFAULTS.accessLevel,
  isFeatured: ARCHIVE_UPLOAD_DEFAULTS.isFeatured,
  albumName: ARCHIVE_UPLOAD_DEFAULTS.albumName,
};

/** Why a file is not even sent (the server decides the type by its bytes; size is known here). */
function localProblem(file: File): string | null {
  if (file.size === 0) return ERROR_MESSAGES.archive_file_empty;
  if (file.size > ARCHIVE_MAX_FILE_BYTES) return ERROR_MESSAGES.archive_file_too_large;
  return null;
}

/** The result of one file from an answer (a 400 when every file of the request was refused carries the same shape). */
type Outcome = { status: 'done' } | { status: 'duplicate'; storedName: string } | { status: 'error'; message: string };

function resultOf(answer: ArchiveUploadResult): Outcome {
  const result = answer.results[0];
  if (!result) return { status: 'error', message: ARCHIVE_TEXTS.unknownError };
  if (result.ok) return result.duplicate ? { status: 'duplicate', storedName: result.item.fileName } : { status: 'done' };
  return { status: 'error', message: result.message };
}

function failureOf(error: unknown): Extract<Outcome, { status: 'error' }> {
  if (isApiError(error)) {
    const details = archiveUploadResult.safeParse(error.details);
    const first = details.success ? details.data.results[0] : undefined;
    if (first && !first.ok) return { status: 'error', message: first.message };
    return { status: 'error', message: error.message };
  }
  return { status: 'error', message: ARCHIVE_TEXTS.unknownError };
}

/**
 * Upload: the fields, then 'Selecionar e Enviar' picks files and sends them one request per
 * file, each with its progress from the real transfer; while sending nothing can be changed or closed.
 */
export function UploadModal({ initialFiles, onClose }: { initialFiles: File[]; onClose: () => void }) {
  const refresh = useRefreshArchive();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [fields, setFields] = useState<UploadFields>(DEFAULT_FIELDS);
  const [files, setFiles] = useState<FileState[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const [queued, setQueued] = useState<File[]>(initialFiles);
  const set = <K extends keyof UploadFields>(key: K, value: UploadFields[K]) => setFields((current) => ({ ...current, [key]: value }));
  const patchFile = (key: string, patch: Partial<FileState>) =>
    setFiles((current) => current.map((entry) => (entry.key === key ? { ...entry, ...patch } : entry)));

  const send = async (picked: File[]) => {
    setQueued([]);
    if (picked.length === 0) {
      toast.error(ARCHIVE_TEXTS.noFiles);
      return;
    }
    const invalid = picked.flatMap((file) => {
      const problem = localProblem(file);
      return problem ? [ARCHIVE_TEXTS.fileError(file.name, problem)] : [];
    });
    const valid = picked.filter((file) => localProblem(file) === null);
    if (valid.length === 0) {
      setErrors(invalid);
      toast.error(ARCHIVE_TEXTS.allInvalid(picked.length));
      return;
    }
    const entries: FileState[] = valid.map((file, index) => ({
      key: `${index}-${file.name}-${file.size}`,
      file,
      percent: 0,
      status: 'waiting',
    }));
    setFiles(entries);
    setErrors(invalid);
    setSending(true);
    const failures = [...invalid];
    const duplicates: string[] = [];
    let stored = 0;
    for (const entry of entries) {
      patchFile(entry.key, { status: 'sending' });
      let outcome: Outcome;
      try {
        const answer = await uploadOne(entry.file, fields, ({ loaded, total }) =>
          patchFile(entry.key, { percent: Math.round((loaded / total) * 100) }),
        );
        outcome = resultOf(answer);
      } catch (error) {
        outcome = failureOf(error);
      }
      patchFile(entry.key, { ...outcome, percent: outcome.status === 'error' ? entry.percent : 100 });
      if (outcome.status === 'error') failures.push(ARCHIVE_TEXTS.fileError(entry.file.name, outcome.message));
      else if (outcome.status === 'duplicate') duplicates.push(ARCHIVE_TEXTS.duplicate(entry.file.name, outcome.storedName));
      else stored += 1;
      setErrors([...failures]);
    }
    setSending(false);
    // One toast for the whole upload, files refused before sending included: the app shows only the newest, so a second
    // would hide the first (and the dialog, closing, takes the list of errors with it).
    const uploadFailures = failures.length - invalid.length;
    const summary = [
      stored > 0 ? ARCHIVE_TEXTS.uploaded(stored) : null,
      ...duplicates,
      uploadFailures > 0 ? ARCHIVE_TEXTS.uploadErrors(uploadFailures) : null,
      invalid.length > 0 ? ARCHIVE_TEXTS.someInvalid(invalid.length) : null,
    ].filter((part): part is string => part !== null);
    if (failures.length > 0) toast.error(summary.join(' '));
    else if (stored > 0) toast.success(summary.join(' '));
    else if (duplicates.length > 0) toast(summary.join(' '), { icon: <Copy aria-hidden="true" className="size-4 text-sky-300" /> });
    // The spec: after at least one success the form resets (it is made anew next time), the modal closes and the list reloads.
    if (stored + duplicates.length > 0) {
      refresh();
      onClose();
    }
  };

  const sendLabel = queued.length > 0 ? `Enviar ${queued.length === 1 ? '1 arquivo' : `${queued.length} arquivos`}` : ARCHIVE_TEXTS.send;
  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!sending}
      size="lg"
      title="Upload de arquivos"
      description="Imagens, vídeos, áudios, PDF e Word, até 50 MB cada."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={sending}>
            {sending ? ARCHIVE_TEXTS.wait : ARCHIVE_TEXTS.cancel}
          </Button>
          <Button
            icon={<Upload aria-hidden="true" className="size-4" />}
            loading={sending}
            onClick={() => (queued.length > 0 ? void send(queued) : inputRef.current?.click())}
          >
            {sending ? ARCHIVE_TEXTS.sending : sendLabel}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        {errors.length > 0 && (
          <div role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm text-rose-800 ring-1 ring-rose-200">
            <p className="font-semibold">{ARCHIVE_TEXTS.uploadErrors(errors.length)}</p>
            <ul className="mt-1 list-disc pl-5">
              {errors.slice(0, ARCHIVE_ERRORS_SHOWN).map((message, index) => (
                <li key={index} className="wrap-anywhere">
                  {message}
                </li>
              ))}
            </ul>
          </div>
        )}
        <TextAreaField
          label="Descrição"
          rows={2}
          maxLength={1000}
          value={fields.description}
          onChange={(event) => set('description', event.target.value)}
          disabled={sending}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Tags"
            hint="Separadas por vírgula"
            value={fields.tags}
            onChange={(event) => set('tags', event.target.value)}
            disabled={sending}
          />
          <CategorySelect value={fields.category} onValue={(category) => set('category', category)} disabled={sending} />
          <AccessLevelSelect value={fields.accessLevel} onValue={(level) => set('accessLevel', level)} disabled={sending} />
          <TextField
            label="Nome do álbum"
            maxLength={100}
            value={fields.albumName}
            onChange={(event) => set('albumName', event.target.value)}
            disabled={sending}
          />
        </div>
        <div className="flex flex-wrap gap-x-6">
          <Checkbox
            label={ARCHIVE_TEXTS.publicCheckbox}
            checked={fields.accessLevel === 'public'}
            onChange={(checked) => set('accessLevel', checked ? 'public' : 'private')}
            disabled={sending}
          />
          <Checkbox
            label={ARCHIVE_TEXTS.featuredCheckbox}
            checked={fields.isFeatured}
            onChange={(checked) => set('isFeatured', checked)}
            disabled={sending}
          />
        </div>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept={ARCHIVE_ACCEPT}
          aria-label="Arquivos para enviar"
          className="sr-only"
          tabIndex={-1}
          disabled={sending}
          onChange={(event) => {
            const picked = Array.from(event.target.files ?? []);
            event.target.value = '';
            void send(picked);
          }}
        />
        {queued.length > 0 && files.length === 0 && (
          <ul aria-label="Arquivos prontos para envio" className="flex flex-col gap-1 text-sm text-slate-700">
            {queued.map((file, index) => (
              <li key={index} className="wrap-anywhere">
                {file.name} · {formatSize(file.size)}
              </li>
            ))}
          </ul>
        )}
        {files.length > 0 && (
          <ul aria-label="Progresso do envio" className="flex flex-col gap-3">
            {files.map((entry) => (
              <li key={entry.key} className="flex flex-col gap-1">
                <div className="flex items-start justify-between gap-2 text-sm">
                  <span className="min-w-0 wrap-anywhere text-slate-800">{entry.file.name}</span>
                  <span className="shrink-0 font-semibold tabular-nums text-slate-700">
                    {entry.status === 'duplicate' ? (
                      <span className="text-sky-800">já existe</span>
                    ) : entry.status === 'error' ? (
                      <CircleAlert aria-label="Erro" className="size-4 text-rose-600" />
                    ) : entry.status === 'done' ? (
                      <CheckCircle2 aria-label="Enviado" className="size-4 text-emerald-600" />
                    ) : (
                      `${entry.percent}%`
                    )}
                  </span>
                </div>
                <ProgressBar
                  value={entry.percent}
                  max={100}
                  label={`Envio de ${entry.file.name}`}
                  tone={entry.status === 'error' ? 'rose' : entry.status === 'done' ? 'emerald' : 'indigo'}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
