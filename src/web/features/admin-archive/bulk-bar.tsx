import { useState } from 'react';
import { X } from 'lucide-react';
import { ARCHIVE_TEXTS, type ArchiveAccessLevel, type ArchiveBulkInput, type ArchiveCategory } from '../../../shared/archive.ts';
import { countOf } from '../../lib/format.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useBulkAction } from './archive-queries.ts';
import { AccessLevelSelect, CategorySelect } from './edit-modal.tsx';

type Action = 'category' | 'accessLevel' | 'album' | 'delete';

const ACTION_OPTIONS = [
  { value: 'category', label: 'Alterar categoria' },
  { value: 'accessLevel', label: 'Alterar nível de acesso' },
  { value: 'album', label: 'Mover para álbum' },
  { value: 'delete', label: 'Excluir' },
] as const;

/** One action on every selected image: delete (asked first), category, access level or album. */
export function BulkBar({ ids, onClear }: { ids: string[]; onClear: () => void }) {
  const bulk = useBulkAction();
  const [action, setAction] = useState<Action>('category');
  const [category, setCategory] = useState<ArchiveCategory>('galeria');
  const [accessLevel, setAccessLevel] = useState<ArchiveAccessLevel>('public');
  const [albumName, setAlbumName] = useState('');
  const [confirming, setConfirming] = useState(false);

  const run = () => {
    const input: ArchiveBulkInput =
      action === 'delete'
        ? { action, ids }
        : action === 'category'
          ? { action, ids, category }
          : action === 'accessLevel'
            ? { action, ids, accessLevel }
            : { action, ids, albumName };
    bulk.mutate(input, {
      onSuccess: (result) => {
        toast.success(result.message);
        setConfirming(false);
        onClear();
      },
      onError: (error) => {
        setConfirming(false);
        toastError(error);
      },
    });
  };

  return (
    <section
      aria-label="Ações em lote"
      className="mb-4 flex flex-col gap-3 rounded-2xl bg-indigo-50 p-3 ring-1 ring-indigo-200 lg:flex-row lg:items-end"
    >
      <p className="text-sm font-semibold text-indigo-900 lg:self-center">
        {countOf(ids.length, 'imagem selecionada', 'imagens selecionadas')}
      </p>
      <div className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end">
        <SelectField
          label="Ação"
          options={ACTION_OPTIONS}
          value={action}
          onChange={(event) => setAction(event.target.value as Action)}
          className="h-11"
          containerClassName="sm:w-56"
        />
        {action === 'category' && (
          <CategorySelect label="Nova categoria" value={category} onValue={setCategory} className="h-11" containerClassName="sm:w-48" />
        )}
        {action === 'accessLevel' && (
          <AccessLevelSelect
            label="Novo nível de acesso"
            value={accessLevel}
            onValue={setAccessLevel}
            className="h-11"
            containerClassName="sm:w-64"
          />
        )}
        {action === 'album' && (
          <TextField
            label="Nome do álbum"
            hint="Vazio tira do álbum"
            maxLength={100}
            value={albumName}
            onChange={(event) => setAlbumName(event.target.value)}
            className="h-11"
            containerClassName="sm:w-56"
          />
        )}
        <Button
          variant={action === 'delete' ? 'danger' : 'primary'}
          loading={bulk.isPending && !confirming}
          onClick={() => (action === 'delete' ? setConfirming(true) : run())}
        >
          Aplicar
        </Button>
      </div>
      <Button variant="ghost" icon={<X aria-hidden="true" className="size-4" />} onClick={onClear}>
        Limpar seleção
      </Button>
      <ConfirmDialog
        open={confirming}
        title={ARCHIVE_TEXTS.bulkDeleteConfirm(ids.length)}
        message={ARCHIVE_TEXTS.deleteConfirmDetail}
        confirmLabel="Excluir"
        pending={bulk.isPending}
        onConfirm={run}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
