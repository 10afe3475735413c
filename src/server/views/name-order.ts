import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A name or text column in the order a Brazilian reader expects: ICU's root collation, which CLDR gives Portuguese
 * unchanged (accents and case only break ties: Ângelo, Érica, Ícaro, Ísis, Ítalo, Lívia, Luís, Vitória), the order of
 * the web's Intl.Collator('pt-BR') (shared/text-order.ts). "und-x-icu" exists on PGlite and on every PostgreSQL built
 * with ICU; "pt-BR-x-icu" is absent from PGlite. The database's own collation may compare bytes ('C' on PGlite and on a
 * cluster made without a locale), which puts 'Álvaro' after 'Zuleica'. Decision 027.
 */
export function nameOrderOf(column: AnyColumn | SQL): SQL {
  return sql`(${column} COLLATE "und-x-icu")`;
}
