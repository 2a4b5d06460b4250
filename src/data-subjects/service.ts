// A data subject's access and erasure (GDPR articles 15 and 17): everything an owner holds about
// one person, found by email address across all of the owner's forms, handed over or deleted.
import { fail } from '../http/errors.ts';
import type { Submission } from '../submissions/store.ts';
import { normaliseEmail } from './subject-emails.ts';
import type { FileLinkDeps } from '../files/link-lists.ts';
import type { FileRecord } from '../files/store.ts';
import type { DataSubjectStore, DerivedData, ErasedForm, SubjectMatch } from './store.ts';

export interface SubjectExport {
  email: string;
  generated_at: string;
  complete: boolean;
  submissions: Array<{ form_id: string; form_name: string; submission: Submission }>;
  derived: DerivedData;
  /** The person's uploaded files as signed links (INTAKE_FILE_LINK_TTL_S), not the bytes. */
  files: SubjectFile[];
}

export interface SubjectFile {
  submission_id: string;
  form_id: string;
  field: string;
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  /** null for a quarantined file: its link would only answer 403. */
  url: string | null;
  expires_at: string | null;
  /** The signature the malware scanner found (the file is quarantined and cannot be downloaded), or null. */
  quarantine: string | null;
}

/** Where a data subject's files are found and signed; without it, an export lists none. */
export interface SubjectFileDeps {
  ofSubmissions(ids: string[]): Promise<Map<string, FileRecord[]>>;
  links: FileLinkDeps;
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

export function dataSubjectService(deps: { store: DataSubjectStore; files?: SubjectFileDeps; clock?: () => Date }) {
  const { store } = deps;
  const clock = deps.clock ?? (() => new Date());
  async function filesOf(ids: string[]): Promise<SubjectFile[]> {
    if (!deps.files) return [];
    const { links } = deps.files;
    return [...(await deps.files.ofSubmissions(ids)).values()].flat().map((file) => {
      // A quarantined file is named with its signature, without a link (as in notifications and exports).
      const { url, expiresAt } = file.quarantine === null ? links.sign(file.id, links.ttlSeconds) : { url: null, expiresAt: null };
      return {
        submission_id: file.submissionId, form_id: file.formId, field: file.field, id: file.id, filename: file.filename,
        content_type: file.content_type, size: file.size, sha256: file.sha256, url, expires_at: expiresAt, quarantine: file.quarantine,
      };
    });
  }

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
        files: await filesOf(ids),
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
