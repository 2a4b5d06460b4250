// Retention: each form keeps its submissions retention_days (null: for ever) and its spam
// spam_retention_days (null: as long as the rest); what is older goes, with everything kept about
// it (deliveries, analyses, fingerprints, the data-subject index), its form's counters moved.
import type { AuditService } from '../audit/service.ts';
import type { RetainingForm, RetentionStore, Which } from './store.ts';

const DAY_MS = 86_400_000;

export interface FormPurge {
  form_id: string;
  form_name: string;
  /** Spam past spam_retention_days. */
  spam: number;
  /** Anything past retention_days (after the spam pass). */
  expired: number;
}

const cutoff = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/** The spam pass applies only when it keeps spam for less time than everything else. */
function spamDays(form: RetainingForm): number | null {
  if (form.spamRetentionDays === null) return null;
  return form.retentionDays !== null && form.retentionDays <= form.spamRetentionDays ? null : form.spamRetentionDays;
}

export const purgeDetail = (p: FormPurge) => `purged ${p.spam + p.expired} submission${p.spam + p.expired === 1 ? '' : 's'} (${p.spam} spam past its retention)`;

export function retentionService(deps: { store: RetentionStore; audit: AuditService; clock?: () => Date }) {
  const { store, audit } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function each(deleting: boolean): Promise<FormPurge[]> {
    const run = deleting ? store.purge : store.count;
    const now = clock();
    const results: FormPurge[] = [];
    for (const form of await store.retainingForms()) {
      const spam = spamDays(form);
      // After a spam pass every spam submission past retention_days is gone (its cutoff is later): the second pass looks at the rest.
      const rest: Which = spam === null ? 'all' : 'ham';
      const result = {
        form_id: form.id,
        form_name: form.name,
        spam: spam === null ? 0 : await run(form.id, 'spam', cutoff(now, spam)),
        expired: form.retentionDays === null ? 0 : await run(form.id, rest, cutoff(now, form.retentionDays)),
      };
      if (result.spam + result.expired === 0) continue;
      results.push(result);
      if (deleting) {
        await audit.recordKeyless({ accountId: form.accountId, surface: 'system', actor: 'retention', operation: 'retention purge', targetId: form.id, detail: purgeDetail(result) });
      }
    }
    return results;
  }

  return {
    /** Deletes what is past its form's retention now; each form's purge is audited with its counts. */
    purge: () => each(true),
    /** What purge() would delete now. */
    dryRun: () => each(false),
  };
}

export type RetentionService = ReturnType<typeof retentionService>;
