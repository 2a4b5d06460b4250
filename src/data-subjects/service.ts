// A data subject's access and erasure (GDPR articles 15 and 17): everything an owner holds about
// one person, found by email address across all of the owner's forms, handed over or deleted.
import { fail } from '../http/errors.ts';
import type { Submission } from '../submissions/store.ts';
import { normaliseEmail } from './subject-emails.ts';
import type { DataSubjectStore, DerivedData, ErasedForm, SubjectMatch } from './store.ts';

export interface SubjectExport {
  email: string;
  generated_at: string;
  complete: boolean;
  submissions: Array<{ form_id: string; form_name: string; submission: Submission }>;
  derived: DerivedData;
}

export interface Erasure {
  erased: number;
  forms: ErasedForm[];
  complete: boolean;
}

function addressOf(email: unknown): string {
  const address = typeof email === 'string' && email.length <= 320 ? normaliseEmail(email) : null;
  if (!address) throw fail.validation({ email: ['must be an email address'] }, 'email must be an email address, such as person@example.com.');
  return address;
}

/** The audit log's words for an erasure: how many, never whose. */
export const erasureDetail = (e: Erasure) => `erased ${e.erased} submission${e.erased === 1 ? '' : 's'} in ${e.forms.length} form${e.forms.length === 1 ? '' : 's'}`;

export function dataSubjectService(deps: { store: DataSubjectStore; clock?: () => Date }) {
  const { store } = deps;
  const clock = deps.clock ?? (() => new Date());
  return {
    async search(accountId: string, email: unknown): Promise<{ email: string; submissions: SubjectMatch[]; complete: boolean }> {
      const address = addressOf(email);
      return { email: address, ...(await store.search(accountId, address)) };
    },

    async export(accountId: string, email: unknown): Promise<SubjectExport> {
      const address = addressOf(email);
      const found = await store.search(accountId, address);
      const ids = found.submissions.map((m) => m.id);
      const full = await store.readSubmissions(ids);
      return {
        email: address,
        generated_at: clock().toISOString(),
        complete: found.complete,
        submissions: found.submissions.flatMap((m) => {
          const submission = full.get(m.id);
          return submission ? [{ form_id: m.form_id, form_name: m.form_name, submission }] : [];
        }),
        derived: await store.derived(ids),
      };
    },

    async erase(accountId: string, email: unknown): Promise<Erasure> {
      const address = addressOf(email);
      const found = await store.search(accountId, address);
      const forms = await store.erase(found.submissions);
      return { erased: forms.reduce((sum, f) => sum + f.erased, 0), forms, complete: found.complete };
    },
  };
}

export type DataSubjectService = ReturnType<typeof dataSubjectService>;
