import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { storeItems } from '../../db/schema.ts';

/** An item's currency, price and name for the record of a refused purchase or contribution (none when it does not exist). */
export async function itemForRecord(db: DbOrTx, itemId: string | undefined) {
  if (!itemId) return undefined;
  const [item] = await db
    .select({ currency: storeItems.currency, price: storeItems.price, name: storeItems.name })
    .from(storeItems)
    .where(eq(storeItems.id, itemId));
  return item;
}
