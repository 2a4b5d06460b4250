// The in-process cost tools' load (metrics-cost.ts, tracing-cost.ts): the submit bench's form and
// submission, sent through Fastify's inject, IN_FLIGHT at a time, every answer checked to be a 201.
import type { TestApp } from '../test/helpers.ts';
import { createForm } from '../test/helpers.ts';
import { CONTACT_FORM, CONTACT_SUBMISSION } from './intake-setup.ts';

export const IN_FLIGHT = 50;

/** Creates the form (a pro owner's, as in the submit bench: no lifetime cap to reach); returns a function sending `n` submissions to it. */
export async function injectSubmissions(t: TestApp): Promise<(n: number) => Promise<void>> {
  const form = await createForm(t, await t.createKey(), { fields_schema: CONTACT_FORM.fields_schema });
  await t.database.db.updateTable('accounts').set({ plan: 'pro' }).execute();
  const url = new URL(form.endpoint).pathname;
  const post = () => t.request({ method: 'POST', url, payload: CONTACT_SUBMISSION, headers: { 'user-agent': 'bench', referer: 'https://example.com/contact' } });
  return async (n) => {
    let sent = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (sent++ < n) {
        const response = await post();
        if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
      }
    }));
  };
}
