// Submissions made straight in the table, processed, for tests of what an owner does with them.
import { randomUUID } from 'node:crypto';
import type { TestApp } from './helpers.ts';

/** Stores `count` processed submissions straight into the table (the pipeline is not what is tested), newest last. */
export async function storeProcessed(t: TestApp, formId: string, count: number, data: (i: number) => Record<string, unknown>): Promise<string[]> {
  const form = await t.database.db.selectFrom('forms').select('current_version_id').where('id', '=', formId).executeTakeFirstOrThrow();
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, k) => {
      const i = start + k;
      const id = randomUUID();
      ids.push(id);
      return {
        id, form_id: formId, version_id: form.current_version_id, data: JSON.stringify(data(i)),
        metadata: JSON.stringify({ ip: '127.0.0.1', user_agent: null, referer: null, origin: null, utm: {} }),
        processing_status: 'completed' as const, spam_flag: false, reply_status: 'pending' as const, fingerprint: `f${i}`, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      };
    });
    await t.database.db.insertInto('submissions').values(rows).execute();
  }
  await t.database.db.updateTable('forms').set((eb) => ({ submission_count: eb('submission_count', '+', count) })).where('id', '=', formId).execute();
  return ids;
}
