import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * A name column in the order a Brazilian reader expects, on any database collation: accents and then case folded before
 * comparing (lower() folds only ASCII without a locale). PGlite and a cluster made without a locale compare bytes, which
 * puts 'Álvaro' and 'Érica' after 'Zuleica'.
 */
export function nameOrderOf(column: AnyColumn): SQL {
  return sql`lower(translate(
  ${column},
  'ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑáàâãäéèêëíìîïóòôõöúùûüçñ', 'AAAAAEEEEIIIIOOOOOUUUUCNaaaaaeeeeiiiiooooouuuucn'))`;
}
