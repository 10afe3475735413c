import type { Ref } from 'react';
import type { LucideIcon } from 'lucide-react';
import { cn } from '../lib/cn.ts';
import { IconButton } from './icon-button.tsx';

/** One action on a row's record: an icon button named with what it does to whom ('Editar Ana Costa'). */
export type RowAction = {
  /** Stays while the label changes ('Ativar' ↔ 'Desativar'), so the button keeps the focus. */
  key: string;
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  disabled?: boolean | undefined;
  /** A removal, in red (marked important: IconButton's own grey comes later in the style sheet). */
  danger?: boolean | undefined;
  ref?: Ref<HTMLButtonElement> | undefined;
};

/** A row's actions as icon buttons in one line, in the order given (a student's in the table, a Loja item's in the catalogue). */
export function RowActions({ actions, size, className }: { actions: RowAction[]; size?: 'sm' | 'md'; className?: string }) {
  return (
    <div className={cn('flex items-center', className)}>
      {actions.map(({ key, icon: Icon, danger, ...button }) => (
        <IconButton
          key={key}
          size={size}
          icon={<Icon aria-hidden="true" className="size-4" />}
          className={danger ? 'text-rose-700! hover:bg-rose-50! hover:text-rose-800!' : undefined}
          {...button}
        />
      ))}
    </div>
  );
}
