import { useEffect, useRef, useState } from 'react';
import { UploadCloud } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

/** Whether a drag carries files (not a dragged link or text from the page). */
function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Files dragged anywhere over the window: `dragging` while they hover (the overlay shows),
 * `onDrop` with the dropped files. Disabled while `enabled` is false (e.g. an upload is running).
 */
export function useFileDrop(onDrop: (files: File[]) => void, enabled: boolean): boolean {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for every child crossed; the depth tells when the pointer really left the window.
  const depth = useRef(0);
  const drop = useRef(onDrop);
  useEffect(() => {
    drop.current = onDrop;
  });

  useEffect(() => {
    if (!enabled) return;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      // Without this the browser opens the file instead of dropping it on the page.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    };
    const dropped = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0) drop.current(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', dropped);
    return () => {
      depth.current = 0;
      setDragging(false);
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', dropped);
    };
  }, [enabled]);

  return dragging;
}

/** The spec's drag-over overlay over the whole window. */
export function DropOverlay() {
  return (
    <div className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-indigo-900/40 p-6 backdrop-blur-[2px]">
      <div
        role="status"
        className={cn(
          'flex flex-col items-center gap-3 rounded-3xl border-4 border-dashed border-white',
          'bg-indigo-700/90 px-8 py-10 text-center text-white shadow-2xl',
        )}
      >
        <UploadCloud aria-hidden="true" className="size-12" />
        <p className="text-lg font-semibold">Solte os arquivos aqui para fazer upload</p>
      </div>
    </div>
  );
}
