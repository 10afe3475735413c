import { Fragment } from 'react';
import { cn } from '../lib/cn.ts';

/** An email's pieces, each ending after an '@' or a dot: where a long address may wrap (and after a domain's hyphens, as any text). */
function emailBreakPoints(email: string): string[] {
  return email.split(/(?<=[@.])/);
}

/**
 * An email that wraps after its '@' and dots (<wbr>), never inside a word; only a piece wider than the whole line on
 * its own breaks where it must (overflow-wrap: break-word), rather than spill out of its card.
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
  return (
    <span className={cn('wrap-break-word', className)}>
      {emailBreakPoints(email).map((piece, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}
