import { useLayoutEffect, useRef, useState } from 'react';
import { ArrowDown, ArrowUp, Eye, EyeOff, Pencil, Plus, ShoppingBag, Trash2 } from 'lucide-react';
import { STORE_CATEGORY_LABELS, type AdminStoreItem } from '../../../shared/store.ts';
import { countOf, formatDate } from '../../lib/format.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { useStaffPermission } from '../../lib/staff.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { EmptyState } from '../../ui/empty-state.tsx';
import { LoadError } from '../../ui/load-error.tsx';
import { RowActions } from '../../ui/row-actions.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { availabilityText, limitText, priceText, stockText, turmasText } from './item-facts.ts';
import { ItemFormModal } from './item-form-modal.tsx';
import { ItemImage } from './item-image.tsx';
import { useAdminStoreItems, useDeleteItem, useMoveItem, useUpdateItem } from './store-queries.ts';

type Dialog = { kind: 'form'; itemId: string | null } | { kind: 'delete'; item: AdminStoreItem };

type RowProps = {
  item: AdminStoreItem;
  index: number;
  count: number;
  turmas: readonly { id: string; name: string }[];
  /** Null for a member who only reads the catalogue. */
  actions: {
    onEdit: () => void;
    onToggle: () => void;
    onDelete: () => void;
    onMove: (to: number) => void;
    busy: boolean;
  } | null;
  moveRef: (direction: 'up' | 'down', element: HTMLButtonElement | null) => void;
};

function ItemRow({ item, index, count, turmas, actions, moveRef }: RowProps) {
  const available = availabilityText(item);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:gap-4 sm:p-5">
      <div className="flex min-w-0 flex-1 gap-3 sm:gap-4">
        <ItemImage item={item} className="size-16 shrink-0 rounded-xl sm:size-20" />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold wrap-anywhere text-slate-900">{item.name}</h3>
            <Badge tone={item.category === 'turma' ? 'violet' : 'indigo'}>{STORE_CATEGORY_LABELS[item.category]}</Badge>
            {!item.active && <Badge tone="slate">Inativo</Badge>}
          </div>
          <p className="text-base font-semibold text-slate-900 tabular-nums">{priceText(item)}</p>
          {item.description && <p className="text-sm wrap-anywhere text-slate-600">{item.description}</p>}
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600" aria-label={`Detalhes de ${item.name}`}>
            {item.category === 'turma' ? (
              <li>Prazo: {item.deadline ? formatDate(item.deadline) : '—'}</li>
            ) : (
              <>
                <li className={item.stockLeft === 0 ? 'font-semibold text-rose-700' : undefined}>{stockText(item)}</li>
                <li>{limitText(item.limit)}</li>
              </>
            )}
            <li>{turmasText(item.turmaIds, turmas)}</li>
            {available && <li>{available}</li>}
            <li>
              {countOf(item.orders, 'pedido', 'pedidos')}
              {item.pendingOrders > 0 && ` (${countOf(item.pendingOrders, 'pendente', 'pendentes')})`}
            </li>
          </ul>
        </div>
      </div>
      {actions && (
        <RowActions
          className="flex-wrap gap-1 border-t border-slate-100 pt-2 sm:border-0 sm:pt-0"
          actions={[
            {
              key: 'up',
              ref: (element) => moveRef('up', element),
              label: `Mover ${item.name} para cima`,
              icon: ArrowUp,
              disabled: index === 0,
              onClick: () => actions.onMove(index - 1),
            },
            {
              key: 'down',
              ref: (element) => moveRef('down', element),
              label: `Mover ${item.name} para baixo`,
              icon: ArrowDown,
              disabled: index === count - 1,
              onClick: () => actions.onMove(index + 1),
            },
            { key: 'edit', label: `Editar ${item.name}`, icon: Pencil, onClick: actions.onEdit },
            {
              key: 'toggle',
              label: item.active ? `Desativar ${item.name}` : `Ativar ${item.name}`,
              icon: item.active ? EyeOff : Eye,
              disabled: actions.busy,
              onClick: actions.onToggle,
            },
            { key: 'delete', label: `Excluir ${item.name}`, icon: Trash2, danger: true, onClick: actions.onDelete },
          ]}
        />
      )}
    </li>
  );
}

/** Catálogo: the items in the order students see them; the coordination creates, edits, reorders, deactivates and deletes them. */
export function CatalogueSection() {
  const items = useAdminStoreItems();
  const manage = useStaffPermission('manageSchool');
  const turmas = useSchoolSettings().data?.turmas ?? [];
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const move = useMoveItem();
  const update = useUpdateItem();
  const remove = useDeleteItem();
  // After a move by keyboard the focus follows the item to its new place (its row is rendered anew there).
  const moveButtons = useRef(new Map<string, HTMLButtonElement>());
  const focusAfterMove = useRef<{ id: string; direction: 'up' | 'down'; from: number } | null>(null);

  const list = items.data ?? [];
  // Moving a row's element drops the focus it held: once the item shows at its new place, its arrow takes the focus
  // back (the other arrow, at the first or last place, where the one pressed is disabled).
  useLayoutEffect(() => {
    const moved = focusAfterMove.current;
    if (!moved || items.data?.findIndex((item) => item.id === moved.id) === moved.from) return;
    focusAfterMove.current = null;
    const pressed = moveButtons.current.get(`${moved.id}:${moved.direction}`);
    const other = moveButtons.current.get(`${moved.id}:${moved.direction === 'up' ? 'down' : 'up'}`);
    (pressed?.disabled ? other : pressed)?.focus();
  }, [items.data]);
  const editing = dialog?.kind === 'form' && dialog.itemId ? (list.find((item) => item.id === dialog.itemId) ?? null) : null;

  const addItem = manage && (
    <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setDialog({ kind: 'form', itemId: null })}>
      Novo item
    </Button>
  );

  return (
    <Card padded={false}>
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Catálogo</h2>
          <p className="text-sm text-slate-600">
            {manage ? 'Na ordem em que os alunos veem. Use as setas para reordenar.' : 'Somente leitura: a coordenação cuida do catálogo.'}
          </p>
        </div>
        {addItem}
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {items.isPending ? (
        <div aria-hidden="true" className="flex flex-col gap-4 p-5">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="flex gap-4">
              <Skeleton className="size-20 rounded-xl" />
              <div className="flex flex-1 flex-col gap-2">
                <Skeleton className="h-4 w-1/3" />
                <Skeleton className="h-4 w-1/5" />
                <Skeleton className="h-4 w-2/3" />
              </div>
            </div>
          ))}
        </div>
      ) : items.isError && !items.data ? (
        <LoadError message="Erro ao carregar a loja" onRetry={() => void items.refetch()} retrying={items.isFetching} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<ShoppingBag className="size-6" />}
          title="Nenhum item na loja"
          description={manage ? 'Crie o primeiro item: um privilégio, um material, uma experiência ou uma meta da turma.' : undefined}
          action={addItem}
        />
      ) : (
        <ul aria-label="Itens do catálogo" className="divide-y divide-slate-200">
          {list.map((item, index) => (
            <ItemRow
              key={item.id}
              item={item}
              index={index}
              count={list.length}
              turmas={turmas}
              moveRef={(direction, element) => {
                const key = `${item.id}:${direction}`;
                if (element) moveButtons.current.set(key, element);
                else moveButtons.current.delete(key);
              }}
              actions={
                manage
                  ? {
                      busy: move.isPending || update.isPending,
                      onEdit: () => setDialog({ kind: 'form', itemId: item.id }),
                      onDelete: () => setDialog({ kind: 'delete', item }),
                      onToggle: () =>
                        update.mutate(
                          { id: item.id, change: { active: !item.active } },
                          {
                            onSuccess: (saved) =>
                              toast.success(saved.active ? `Item '${saved.name}' ativado` : `Item '${saved.name}' desativado`),
                            onError: (error) => toastError(error, 'Erro ao salvar item'),
                          },
                        ),
                      onMove: (to) => {
                        focusAfterMove.current = { id: item.id, direction: to < index ? 'up' : 'down', from: index };
                        move.mutate(
                          { id: item.id, position: to },
                          {
                            onSuccess: () => setAnnouncement(`${item.name} movido para a posição ${to + 1} de ${list.length}`),
                            onError: (error) => {
                              focusAfterMove.current = null;
                              toastError(error, 'Erro ao reordenar');
                            },
                          },
                        );
                      },
                    }
                  : null
              }
            />
          ))}
        </ul>
      )}

      {dialog?.kind === 'form' && (dialog.itemId === null || editing) && (
        <ItemFormModal key={dialog.itemId ?? 'new'} item={editing} onClose={() => setDialog(null)} />
      )}
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title="Excluir item"
        message={
          dialog?.kind === 'delete' && (
            <div className="flex flex-col gap-2">
              <p>
                Excluir <strong>{dialog.item.name}</strong> da loja?
              </p>
              {dialog.item.orders > 0 && (
                <p>Este item já tem pedidos: ele será apenas desativado, e os pedidos pendentes continuam na fila.</p>
              )}
            </div>
          )
        }
        confirmLabel="Excluir"
        pending={remove.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind !== 'delete') return;
          remove.mutate(dialog.item, {
            onSuccess: (result) => {
              toast.success(result.message);
              setDialog(null);
            },
            onError: (error) => toastError(error, 'Erro ao excluir item'),
          });
        }}
      />
    </Card>
  );
}
