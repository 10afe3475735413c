import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { storeItems } from '../../db/schema.ts';
import { DEFAULT_TIME_ZONE } from '../../../shared/format.ts';
import type { LedgerDeps } from '../ledger/ledger.service.ts';

/** An item's currency, price and name for the record of a refused purchase or contribution (none when it does not exist). */
export async function itemForRecord(db: DbOrTx, itemId: string | undefined) {
  if (!itemId) return undefined;
  const [item] = await db
    .select({ currency: storeItems.currency, price: storeItems.price, name: storeItems.name })
    .from(storeItems)
    .where(eq(storeItems.id, itemId));
  return item;
}

/** The school's time zone, which gives a purchase's limit period and a goal's deadline their days. */
export async function timeZoneOf(deps: Pick<LedgerDeps, 'settings'>): Promise<string> {
  return deps.settings ? (await deps.settings.get()).school.timeZone : DEFAULT_TIME_ZONE;
}
