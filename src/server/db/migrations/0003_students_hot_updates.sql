-- Every operation updates balances on students. With no index on a balance column, and
-- room left on each page, those updates are HOT: no index entries to add, no index bloat.
-- A school's ranking (a few thousand rows) is sorted in well under a millisecond without it.
DROP INDEX "students_meritus_idx";--> statement-breakpoint
ALTER TABLE "students" SET (fillfactor = 80);
