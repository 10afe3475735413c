import { firstNameAndInitial, RANKING_PRIVACY_TEXTS, type RankingNameMode } from '../../shared/ranking-privacy.ts';
import type { SchoolRules } from '../../shared/settings.ts';
import type { ShownStudent } from '../../shared/students.ts';

/*
 * The one rule for how a student reaches another person's screen (decision 029): the ranking, the tags, the recipient
 * search and anything else that names students calls these, never a copy. A guardian sees their children as each child
 * sees themself and every other student as a student does (decision 037).
 */

/** The school's privacy rules in effect: the mode for names, and whether a student's 'Não aparecer no ranking' counts. */
export type RankingPrivacy = { mode: RankingNameMode; hidingAllowed: boolean };

export function rankingPrivacyOf(rules: Pick<SchoolRules, 'rankingNames' | 'rankingHideAllowed'>): RankingPrivacy {
  return { mode: rules.rankingNames, hidingAllowed: rules.rankingHideAllowed };
}

/**
 * Who is looking: staff see everyone whole; a student sees themself whole and the others under the school's rules; a
 * guardian, their children (`childIds`) whole and the others as a student does.
 */
export type Viewer = { kind: 'staff' } | { kind: 'student'; id: string } | { kind: 'guardian'; childIds: readonly string[] };

/** A principal as a viewer; a guardian's children are named by the caller that checked the links (none: all are others). */
export function viewerOf(principal: { role: string; id: string }, childIds: readonly string[] = []): Viewer {
  if (principal.role === 'student') return { kind: 'student', id: principal.id };
  return principal.role === 'guardian' ? { kind: 'guardian', childIds } : { kind: 'staff' };
}

/** Whether the viewer sees a student under the school's rules (anyone but themself, or a guardian's own children). */
export function isOtherStudent(viewer: Viewer, studentUuid: string): boolean {
  if (viewer.kind === 'guardian') return !viewer.childIds.includes(studentUuid);
  return viewer.kind === 'student' && viewer.id !== studentUuid;
}

/** Whether a student is left out of what the viewer browses: they chose not to appear, the school allows it, and it is not them. */
export function isHiddenFrom(viewer: Viewer, privacy: RankingPrivacy, student: { id: string; rankingHidden: boolean }): boolean {
  return privacy.hidingAllowed && student.rankingHidden && isOtherStudent(viewer, student.id);
}

/** Whether the viewer sees other students by name ('Nome completo', or 'Só vizinhos', which shows fewer rows, not fewer names). */
export function namesWhole(viewer: Viewer, privacy: RankingPrivacy): boolean {
  return viewer.kind === 'staff' || privacy.mode === 'full' || privacy.mode === 'neighbours';
}

/**
 * A student as the viewer may see them. Another student's photo needs the school's record of the image consent
 * (`photoShared`, decision 030). Outside full names another student keeps only a name of the mode: 'Ana S.' with the
 * turma, or in 'Anônimo' `anonymousName` (a row's number in the list the viewer sees, never one of the student's own, so
 * two views cannot be matched by it) and nothing else.
 */
export function shownTo(
  viewer: Viewer,
  privacy: RankingPrivacy,
  student: ShownStudent & { id: string; photoShared: boolean },
  anonymousName: string = RANKING_PRIVACY_TEXTS.anonymousHolder,
): ShownStudent {
  const { photoShared, ...shown } = student;
  if (!isOtherStudent(viewer, student.id)) return shown;
  if (namesWhole(viewer, privacy)) return photoShared ? shown : { ...shown, photo: null };
  if (privacy.mode === 'firstNameInitial') {
    return { id: null, studentId: null, name: firstNameAndInitial(student.name), grade: student.grade, photo: null };
  }
  return { id: null, studentId: null, name: anonymousName, grade: null, photo: null };
}
