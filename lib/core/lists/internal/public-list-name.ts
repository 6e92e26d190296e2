import { sql } from 'drizzle-orm';
import { contactLists } from '@/lib/db/schema';

/** A list's name as its contacts see it (pages behind unsubscribe and confirmation links): `public_name`, else `name`. */
export const publicListName = sql<string>`coalesce(${contactLists.publicName}, ${contactLists.name})`;
