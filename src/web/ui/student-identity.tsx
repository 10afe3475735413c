import { Avatar } from './avatar.tsx';

/** A student's photo, name and "matrícula · turma", as lists and pickers show them: whole, wrapping on a narrow screen. */
export function StudentIdentity({
  student,
}: {
  student: { name: string; photo: string | null; studentId: string | null; grade: string | null };
}) {
  const details = [student.studentId, student.grade].filter((detail) => detail !== null);
  return (
    <>
      <Avatar name={student.name} src={student.photo} size="sm" />
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-semibold wrap-anywhere text-slate-900">{student.name}</span>
        {details.length > 0 && (
          <span className="block text-xs text-slate-600">
            {student.studentId}
            {details.length > 1 && ' · '}
            {student.grade !== null && <span className="whitespace-nowrap">{student.grade}</span>}
          </span>
        )}
      </span>
    </>
  );
}
