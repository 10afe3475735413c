/**
 * Names and texts in the order a Brazilian reader expects (Ângelo, Érica, Ícaro, Ísis, Ítalo, Lívia, Luís, Vitória):
 * Portuguese collation, the one the database's ORDER BY uses (ICU, server/views/name-order.ts), so a list the server
 * sorted and a list sorted here agree. One collator, built once: building one costs more than many comparisons.
 */
export const compareText: (a: string, b: string) => number = new Intl.Collator('pt-BR').compare;
