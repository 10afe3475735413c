import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseButton } from './close-button.tsx';
import { cn } from '../lib/cn.ts';
import { useFocusTrap } from './use-focus-trap.ts';

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** While false (e.g. a request is running), Escape, the overlay and Fechar do not close it. */
  dismissible?: boolean;
  /** Called instead when one of them is tried while the dialog is not dismissible, to tell the user why it stays. */
  onBlockedClose?: () => void;
  children?: ReactNode;
};

const widths = { sm: 'sm:max-w-sm', md: 'sm:max-w-lg', lg: 'sm:max-w-2xl', xl: 'sm:max-w-4xl' } as const;

/** An accessible dialog: labelled, modal, focus kept inside, Escape and overlay close, focus returns. */
export function Modal({
  open,
  onClose,
  title,
  description,
  footer,
  size = 'md',
  dismissible = true,
  onBlockedClose,
  children,
}: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const close = () => {
    if (dismissible) onClose();
    else onBlockedClose?.();
  };
  useFocusTrap(panelRef, open, close);
  if (!open) return null;

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-4">
      <div aria-hidden="true" className="absolute inset-0 bg-slate-900/50 backdrop-blur-[2px]" onClick={close} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(
          'relative flex max-h-[92dvh] w-full flex-col rounded-t-3xl bg-white shadow-xl focus:outline-none sm:rounded-2xl',
          widths[size],
        )}
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 pt-5 pb-4">
          <div className="min-w-0">
            <h2 id={titleId} tabIndex={-1} data-focus-heading className="text-lg font-semibold text-slate-900 focus:outline-none">
              {title}
            </h2>
            {description && (
              <p id={descriptionId} className="mt-1 text-sm text-slate-600">
                {description}
              </p>
            )}
          </div>
          <CloseButton
            label="Fechar"
            onClick={close}
            className="-mt-1 -mr-1 flex size-10 shrink-0 items-center justify-center rounded-xl text-slate-500 hover:bg-slate-100 hover:text-slate-900"
          />
        </div>
        {/* Focus starts at the first field, or at the first button of a dialog without one (Cancelar), never at Fechar; on a phone, at the title. */}
        <div data-focus-start className="overflow-y-auto px-5 py-4">
          {children}
        </div>
        {footer && (
          <div data-focus-start className="flex flex-col-reverse gap-2 border-t border-slate-100 px-5 py-4 sm:flex-row sm:justify-end">
            {footer}
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}
