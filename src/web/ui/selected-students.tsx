import { X } from 'lucide-react';

/**
 * The students an operation goes to, by name, as chips: under the form's last field, so who receives it is read right
 * above the button that sends it, and in the confirmation. `onRemove` makes each chip a button that takes its student out.
 */
export function SelectedStudents({
  students,
  onRemove,
  label = 'Estudantes selecionados',
}: {
  students: readonly { id: string; name: string }[];
  onRemove?: (id: string) => void;
  label?: string;
}) {
  if (students.length === 0) return null;
  return (
    <ul
      aria-label={label}
      // A whole turma's names scroll inside a framed box, so a cut row reads as more to scroll, not as a broken layout.
      className="flex max-h-48 flex-wrap gap-1.5 overflow-y-auto rounded-xl border border-slate-200 bg-slate-50/60 p-2"
    >
      {students.map((student) => (
        <li key={student.id} className="min-w-0">
          {onRemove ? (
            <button
              type="button"
              onClick={() => onRemove(student.id)}
              aria-label={`Tirar ${student.name} da seleção`}
              className={
                'inline-flex min-h-8 max-w-full items-center gap-1 rounded-full bg-indigo-50 py-1 pr-2 pl-3 text-left text-sm ' +
                'font-medium text-indigo-900 ring-1 ring-indigo-200 ring-inset hover:bg-indigo-100'
              }
            >
              <span className="wrap-anywhere">{student.name}</span>
              <X aria-hidden="true" className="size-4 shrink-0" />
            </button>
          ) : (
            <span
              className={
                'inline-flex max-w-full rounded-full bg-slate-100 px-3 py-1 text-sm font-medium wrap-anywhere text-slate-800 ' +
                'ring-1 ring-slate-200 ring-inset'
              }
            >
              {student.name}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
