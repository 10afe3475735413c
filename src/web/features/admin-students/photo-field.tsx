import { useEffect, useId, useMemo } from 'react';
import { CheckCircle2, Database, ImageUp, Link2, Trash2, XCircle } from 'lucide-react';
import { ADMIN_STUDENT_TEXTS, photoUrlProblem } from '../../../shared/admin-students.ts';
import { ARCHIVE_TEXTS, type ArchiveItem } from '../../../shared/archive.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { absoluteUrl, copyToClipboard } from '../../lib/clipboard.ts';
import { formatSize } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { cn } from '../../lib/cn.ts';
import { ArchiveImagePicker } from '../../ui/archive-image-picker.tsx';
import { Avatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { checkImageUrl, checkPhotoFile, PHOTO_ACCEPT } from './photo-check.ts';

export type PhotoMode = 'url' | 'upload' | 'archive';

/** An image picked from the archive; the server makes it the photo when the student is saved. */
export type ArchivePick = { id: string; fileName: string; previewUrl: string | null };
export type UrlStatus = 'idle' | 'checking' | 'valid' | 'invalid';

export type PhotoState = {
  mode: PhotoMode;
  url: string;
  urlStatus: UrlStatus;
  file: File | null;
  fileError: string | null;
  archive: ArchivePick | null;
  /** The current photo is to be removed on save. */
  remove: boolean;
};

export function initialPhotoState(current: { photo: string | null; photoSource: 'upload' | 'url' | null } | null): PhotoState {
  const url = current?.photoSource === 'url' && current.photo ? current.photo.replace(/[?&]v=\d+$/, '') : '';
  return {
    mode: current?.photoSource === 'upload' ? 'upload' : 'url',
    url,
    urlStatus: url ? 'valid' : 'idle',
    file: null,
    fileError: null,
    archive: null,
    remove: false,
  };
}

/** Checks the typed address (parse + load within 5 s) and reports the result into the state. */
export async function verifyUrl(state: PhotoState, update: (patch: Partial<PhotoState>) => void): Promise<boolean> {
  update({ urlStatus: 'checking' });
  const ok = await checkImageUrl(state.url);
  update({ urlStatus: ok ? 'valid' : 'invalid' });
  return ok;
}

type PhotoFieldProps = {
  name: string;
  /** The photo saved now (with its version), if any. */
  currentPhoto: string | null;
  state: PhotoState;
  onChange: (patch: Partial<PhotoState>) => void;
  disabled?: boolean;
};

/** The photo part of the student form: by address (checked in the browser), by upload (checked, then sent) or picked from the archive. */
export function PhotoField({ name, currentPhoto, state, onChange, disabled }: PhotoFieldProps) {
  const inputId = useId();
  const preview = useMemo(() => (state.file ? URL.createObjectURL(state.file) : null), [state.file]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const typed = state.url.trim();
  const urlPhoto = typed ? (state.urlStatus === 'valid' ? typed : null) : currentPhoto;
  const shown = state.remove
    ? null
    : state.mode === 'upload'
      ? (preview ?? currentPhoto)
      : state.mode === 'archive'
        ? (state.archive?.previewUrl ?? currentPhoto)
        : urlPhoto;

  /** 'Selecionar Imagem para Cadastro': the image's address goes to the clipboard, as the spec's picker did. */
  const pickArchive = async (item: ArchiveItem) => {
    onChange({ archive: { id: item.id, fileName: item.fileName, previewUrl: item.previewUrl }, remove: false });
    const copied = await copyToClipboard(absoluteUrl(item.previewUrl ?? item.fileUrl));
    toast.success(copied ? ARCHIVE_TEXTS.selected : ARCHIVE_TEXTS.selectedFallback(item.fileName));
  };

  const pickFile = async (file: File | undefined) => {
    if (!file) return;
    const problem = await checkPhotoFile(file);
    onChange(problem ? { file: null, fileError: problem } : { file, fileError: null, remove: false });
  };

  const urlMessage =
    state.urlStatus === 'checking' ? (
      <span className="text-slate-600">Verificando imagem...</span>
    ) : state.urlStatus === 'valid' && state.url ? (
      <span className="inline-flex items-center gap-1 font-medium text-emerald-700">
        <CheckCircle2 aria-hidden="true" className="size-4" />
        {ADMIN_STUDENT_TEXTS.urlValid}
      </span>
    ) : state.urlStatus === 'invalid' ? (
      <span className="inline-flex items-center gap-1 font-medium text-rose-700">
        <XCircle aria-hidden="true" className="size-4" />
        {ERROR_MESSAGES[photoUrlProblem(typed) ?? 'invalid_photo_url']}
      </span>
    ) : (
      'Endereço https de uma imagem (JPG, PNG, GIF ou WebP).'
    );

  return (
    <fieldset className="min-w-0 rounded-2xl border border-slate-200 p-4">
      <legend className="px-1 text-sm font-medium text-slate-800">Foto</legend>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="flex flex-col items-center gap-2 sm:w-36">
          <Avatar name={name || 'Novo aluno'} src={shown} size="xl" className="ring-slate-200" />
          {(currentPhoto || state.file || state.url || state.archive) && !state.remove && (
            <Button
              variant="ghost"
              size="sm"
              className="whitespace-nowrap"
              disabled={disabled}
              onClick={() => onChange({ remove: true, file: null, fileError: null, archive: null, url: '', urlStatus: 'idle' })}
              icon={<Trash2 aria-hidden="true" className="size-4" />}
            >
              Remover foto
            </Button>
          )}
          {state.remove && <p className="text-center text-xs text-slate-600">A foto será removida ao salvar.</p>}
        </div>
        <Tabs<PhotoMode>
          className="min-w-0 flex-1"
          // Three sources side by side do not fit a phone's dialog: the last one goes to a line of its own.
          listClassName="flex-wrap"
          label="Origem da foto"
          value={state.mode}
          onChange={(mode) => onChange({ mode })}
          items={[
            {
              id: 'url',
              label: 'Por URL',
              icon: <Link2 aria-hidden="true" className="size-4" />,
              panel: (
                <div className="flex flex-col gap-2">
                  <div className="flex items-end gap-2">
                    <TextField
                      label="URL da imagem"
                      type="url"
                      inputMode="url"
                      placeholder="https://..."
                      value={state.url}
                      disabled={disabled}
                      containerClassName="flex-1"
                      onChange={(event) => onChange({ url: event.target.value, urlStatus: 'idle', remove: false })}
                      onBlur={() => {
                        if (state.url.trim() && state.urlStatus === 'idle') void verifyUrl(state, onChange);
                      }}
                    />
                    <Button
                      variant="secondary"
                      disabled={disabled || !state.url.trim()}
                      loading={state.urlStatus === 'checking'}
                      onClick={() => void verifyUrl(state, onChange)}
                    >
                      Verificar
                    </Button>
                  </div>
                  <p role="status" aria-live="polite" className="text-sm">
                    {urlMessage}
                  </p>
                </div>
              ),
            },
            {
              id: 'upload',
              label: 'Enviar arquivo',
              icon: <ImageUp aria-hidden="true" className="size-4" />,
              panel: (
                <div className="flex flex-col gap-2">
                  <label
                    htmlFor={inputId}
                    className={cn(
                      'flex cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed',
                      'border-slate-300 bg-slate-50 px-4 py-5 text-center transition-colors hover:border-indigo-400',
                      'hover:bg-indigo-50/50 focus-within:border-indigo-500 focus-within:ring-2 focus-within:ring-indigo-500/40',
                    )}
                  >
                    <ImageUp aria-hidden="true" className="size-6 text-indigo-600" />
                    <span className="text-sm font-semibold text-slate-900">{state.file ? 'Trocar arquivo' : 'Escolher foto'}</span>
                    <span className="text-xs text-slate-600">JPG, PNG, GIF ou WebP, até 5 MB</span>
                    <input
                      id={inputId}
                      type="file"
                      accept={PHOTO_ACCEPT}
                      disabled={disabled}
                      aria-label="Arquivo da foto"
                      className="sr-only"
                      onChange={(event) => {
                        void pickFile(event.target.files?.[0]);
                        event.target.value = '';
                      }}
                    />
                  </label>
                  <p role="status" aria-live="polite" className="text-sm">
                    {state.fileError ? (
                      <span className="font-medium text-rose-700">{state.fileError}</span>
                    ) : state.file ? (
                      <span className="text-slate-700">
                        {state.file.name} · {formatSize(state.file.size)}
                      </span>
                    ) : null}
                  </p>
                </div>
              ),
            },
            {
              id: 'archive',
              label: 'Data-Base',
              icon: <Database aria-hidden="true" className="size-4" />,
              panel: (
                <div className="flex flex-col gap-3">
                  <p className="text-sm font-semibold text-slate-900">{ARCHIVE_TEXTS.pickerTitle}</p>
                  {state.archive && (
                    <p role="status" className="inline-flex items-start gap-1 text-sm font-medium wrap-anywhere text-emerald-800">
                      <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                      {ARCHIVE_TEXTS.pickerSelected}: {state.archive.fileName}
                    </p>
                  )}
                  <ArchiveImagePicker
                    selectedId={state.archive?.id ?? null}
                    onSelect={(item) => void pickArchive(item)}
                    disabled={disabled}
                  />
                </div>
              ),
            },
          ]}
        />
      </div>
    </fieldset>
  );
}
