// The rules of submissions: who may submit, what is valid, that a 201 means stored, and the
// owner's view of what arrived.
import { publicBaseUrl, type Config } from '../config.ts';
import { endpointUrl, htmlEndpointUrl } from '../forms/present.ts';
import { secretMatches } from '../accounts/secrets.ts';
import { GroupCommit } from '../db/group-commit.ts';
import { timeOrderedUuid } from '../db/time-ordered-id.ts';
import { fail } from '../http/errors.ts';
import { checkOrigin } from '../forms/origins.ts';
import type { FormService } from '../forms/service.ts';
import type { FormRecord, FormVersion } from '../forms/store.ts';
import { compileValidator, type SubmissionValidator } from './validator.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { PROCESS_SUBMISSION } from '../pipeline/tasks.ts';
import { contentFingerprint } from './fingerprint.ts';
import { idempotencyRequestHash } from './idempotency.ts';
import type { CorrectionEffects, InsertOutcome, NewSubmission, Split, Submission, SubmissionMetadata, SubmissionStore } from './store.ts';
import { isNarrowed, type Filtered, type SearchQuery } from './search.ts';
import type { WriteBatch } from './writer.ts';
import { learnCorrections } from '../pipeline/spam/feedback-store.ts';
import { withoutCaptchaFields, type CaptchaService } from '../captcha/index.ts';
import { correctionFeatures } from '../pipeline/spam/owner-feedback.ts';
import { byContent, withFiles, withoutFileFields, type StoredUpload } from '../files/uploads.ts';
import { submitTrace, tracedCommit, type RequestSpan } from '../tracing/index.ts';

export interface SubmitRequest {
  segment: string;
  slug: string;
  body: unknown;
  bearerToken: string | null;
  /** The account whose API key sent it (submit_to_form): on its own private forms the key stands in for the token. */
  ownerAccountId?: string;
  idempotencyKey: string | null;
  metadata: SubmissionMetadata;
  /** Files already stored (src/files), by field: only the HTML endpoint's multipart parts bring them. */
  files?: ReadonlyMap<string, StoredUpload[]>;
  /** Which endpoint was posted to: the JSON one (the default) or the plain HTML form's (src/html-forms). */
  door?: 'json' | 'html';
  /** Where this request reached the server, for the URLs its answer names; else INTAKE_PUBLIC_URL or this server. */
  baseUrl?: string;
  /** The request's span while tracing is on (src/tracing/http.ts): the commit's attributes go on it, its context into the job. */
  span?: RequestSpan;
}

export interface Accepted {
  /** 201 for a new submission, 200 when an Idempotency-Key replays an earlier one. */
  status: 201 | 200;
  submission: { id: string; data: Record<string, unknown>; created_at: string };
}

export interface Page {
  data: Submission[];
  meta: { current_page: number; total_pages: number; total_count: number; page_size: number };
}

export interface SearchPage {
  data: Submission[];
  /** Pass back as `cursor` for the next, older page (a narrowed search may come back short and still have one); null at the end. */
  next_cursor: string | null;
}

export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/** Cursors are opaque to clients: the position of the last row, encoded. */
const encodeCursor = (seq: number) => Buffer.from(`s${seq}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const match = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw fail.invalidParameters('The cursor is not one this service gave out: pass next_cursor of the previous page as it is.', { cursor: ['is invalid'] });
  return Number(match[1]);
}
/**
 * Compiled validators kept at once. One holds about 11 KB of heap for a five-field form (Ajv's
 * generated code; about 1 ms to compile), so 2,000 hold about 22 MB: 10,000 could hold 107 MB.
 */
const VALIDATOR_CACHE_LIMIT = 2_000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What an owner's spam correction sets off: the skipped steps resumed, the account's spam checks taught. */
export function correctionEffects(queue: JobQueue, accountId: string): CorrectionEffects {
  return {
    resume: (tx, ids) => queue.enqueueInTransaction(tx, ids.map((submissionId) => ({ task: PROCESS_SUBMISSION, payload: { submissionId } }))),
    learn: (tx, samples) =>
      learnCorrections(tx, samples.map((sample) => ({ accountId, buckets: correctionFeatures(sample.fields, sample.data), spam: sample.spam, reverses: sample.reverses }))),
  };
}

export function submissionService(deps: {
  store: SubmissionStore;
  forms: FormService;
  config: Config;
  /** Stores a batch, and the processing job of every submission it creates, in one transaction. */
  writeBatch: WriteBatch;
  /** A spam correction that resumes processing enqueues its job. */
  queue: JobQueue;
  /** Batches in flight at once (see GroupCommit). */
  writeConcurrency: number;
  /** After an owner's change committed (a spam correction, a deletion): the live dashboard is told. */
  changed?: (change: { account: string; form: string; type: 'verdicts' | 'submissions' }) => void;
  /** Checks the form's CAPTCHA, if it has one, before anything is stored. */
  captcha: CaptchaService;
  clock?: () => Date;
}) {
  const { store, forms, config } = deps;
  const clock = deps.clock ?? (() => new Date());
  const { queue } = deps;
  const writer = new GroupCommit<NewSubmission, InsertOutcome>(deps.writeBatch, { maxBatch: 256, maxConcurrent: deps.writeConcurrency });
  // Compiled once per schema version; versions are immutable, so entries never go stale.
  const validators = new Map<string, SubmissionValidator>();

  function validatorFor(version: FormVersion): SubmissionValidator {
    let validator = validators.get(version.id);
    if (validator) {
      // Re-inserted on use: a Map iterates in insertion order, so the least recently used comes first.
      validators.delete(version.id);
    } else {
      if (validators.size >= VALIDATOR_CACHE_LIMIT) validators.delete(validators.keys().next().value as string);
      validator = compileValidator(version.schema);
    }
    validators.set(version.id, validator);
    return validator;
  }

  async function requireEndpoint(segment: string, slug: string) {
    const found = await forms.resolveEndpoint(segment, slug);
    if (!found) throw fail.formNotFound();
    return found;
  }

  function authorize(form: FormRecord, token: string | null, ownerAccountId: string | undefined): void {
    if (form.visibility !== 'private' || ownerAccountId === form.accountId) return;
    if (!token || !form.submissionTokenHash || !secretMatches(token, form.submissionTokenHash)) {
      throw fail.unauthorized('This form is private: send Authorization: Bearer <SUBMISSION_TOKEN>.');
    }
  }

  return {
    async submit(request: SubmitRequest): Promise<Accepted> {
      const { form, endpointVersion } = await requireEndpoint(request.segment, request.slug);
      authorize(form, request.bearerToken, request.ownerAccountId);
      // The owner's own key (submit_to_form) comes from no website; anyone else's post must come from a listed one.
      const { unknownOrigin } = request.ownerAccountId === form.accountId ? { unknownOrigin: false } : checkOrigin(form, request.metadata);
      let metadata: SubmissionMetadata = unknownOrigin ? { ...request.metadata, origin_unknown: true } : request.metadata;
      if (!isPlainObject(request.body)) throw fail.invalidBody('The request body must be a JSON object of field names and values.');
      if (request.idempotencyKey !== null && (request.idempotencyKey.length === 0 || request.idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
        throw fail.invalidParameters(`The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`);
      }
      // The token is not data. The other fields are checked first: a hosted provider's token works
      // once, and a visitor fixing a typo should not have to solve the CAPTCHA again.
      const body = withFiles(withoutCaptchaFields(request.body, endpointVersion.schema.fields), endpointVersion.schema.fields, request.files);
      const result = validatorFor(endpointVersion)(body);
      if (!result.ok) throw fail.validation(olderEndpointHint(result.details, endpointVersion, form, (request.door === 'html' ? htmlEndpointUrl : endpointUrl)(request.baseUrl ?? publicBaseUrl(config), form.version)));
      // Like the origin check: the owner's own key (submit_to_form) is no visitor to tell from a bot.
      if (form.settings.captcha_provider !== 'none' && request.ownerAccountId !== form.accountId) {
        const { ip, origin, referer } = request.metadata;
        const verdict = await deps.captcha.check(form, request.body, { ip, origin, referer });
        if ('failed' in verdict) throw fail.captchaFailed(verdict.failed);
        if ('unavailable' in verdict) metadata = { ...metadata, flagged_spam: `CAPTCHA not verified: ${verdict.unavailable}` };
      }

      // Honeypot spam is stored (as spam) without its files: the bytes are removed by the caller.
      const data = request.metadata.honeypot ? withoutFileFields(result.data, endpointVersion.schema.fields) : result.data;
      const files = request.metadata.honeypot ? [] : [...(request.files?.values() ?? [])].flat();
      const now = clock();
      const item: NewSubmission = {
        id: timeOrderedUuid(now.getTime()),
        formId: form.id,
        accountId: form.accountId,
        versionId: endpointVersion.id,
        data,
        metadata,
        idempotencyKey: request.idempotencyKey,
        idempotencyHash: request.idempotencyKey === null ? null : idempotencyRequestHash(endpointVersion.id, byContent(data, endpointVersion.schema.fields)),
        fingerprint: contentFingerprint(data, endpointVersion.schema.fields, metadata.ip),
        createdAt: now.toISOString(),
        submissionCap: config.freeSubmissionLimit,
        ...(files.length > 0 && { files }),
        ...submitTrace(request.span),
      };
      const outcome = await tracedCommit(request.span, item, form.id, item.id, () => writer.write(item));
      if (outcome.kind === 'plan_limit') throw fail.planLimitExhausted(config.billingUrl);
      if (outcome.kind === 'form_gone') throw fail.formNotFound();
      if (outcome.kind === 'key_reused') throw fail.idempotencyKeyReused();
      if (outcome.kind === 'duplicate') {
        const { id, data, created_at } = outcome.existing;
        return { status: 200, submission: { id, data, created_at } };
      }
      return { status: 201, submission: { id: item.id, data: item.data, created_at: item.createdAt } };
    },

    /** A new ALTCHA challenge for the form behind the endpoint; 404 when the form does not use ALTCHA. */
    async captchaChallenge(segment: string, slug: string) {
      const { form } = await requireEndpoint(segment, slug);
      const challenge = await deps.captcha.challenge(form);
      if (!challenge) throw fail.notFound('This form does not use ALTCHA, so it has no challenge to solve.');
      return challenge;
    },

    /** The form and its current version, for discovery at any of its endpoints, old or new. */
    async discover(segment: string, slug: string): Promise<FormRecord> {
      return (await requireEndpoint(segment, slug)).form;
    },

    /**
     * A page of a split, newest first unless `order` says oldest first; `done` undefined lists done
     * and not done alike, as the spec's filter does. A plain split counts and seeks deep pages by its
     * block counts; a narrowed one (text, statuses, times) counts its matches row by row.
     */
    async list(accountId: string, formId: string, query: Filtered & { page: number; pageSize: number; order?: 'asc' | 'desc' }): Promise<Page> {
      const form = await forms.get(accountId, formId);
      const { page, pageSize, order = 'desc', ...filters } = query;
      const split: Split = { filter: query.filter, ...(query.done !== undefined && { done: query.done }) };
      const offset = (page - 1) * pageSize;
      const narrow = isNarrowed(filters);
      const total = narrow ? await store.countMatching(form.id, filters)
        : query.done !== undefined ? await store.count(form.id, split)
        : query.filter === 'all' ? form.submissionCount : query.filter === 'spam' ? form.spamCount : form.submissionCount - form.spamCount;
      const data = narrow || order === 'asc'
        ? await store.listMatching(form.id, filters, { limit: pageSize, offset, order })
        : await store.list(form.id, split, pageSize, offset);
      return {
        data,
        meta: { current_page: query.page, total_pages: Math.ceil(total / query.pageSize), total_count: total, page_size: query.pageSize },
      };
    },

    /** Newest first, filtered; pages follow each other by cursor, so new arrivals never shift them. */
    async search(accountId: string, formId: string, query: Omit<SearchQuery, 'beforeSeq'> & { cursor?: string }): Promise<SearchPage> {
      const form = await forms.get(accountId, formId);
      const { cursor, ...rest } = query;
      const page = await store.search(form.id, { ...rest, ...(cursor !== undefined && { beforeSeq: decodeCursor(cursor) }) });
      return { data: page.submissions, next_cursor: page.nextBeforeSeq === null ? null : encodeCursor(page.nextBeforeSeq) };
    },

    /** The form holding one of the owner's submissions (for callers that name only the submission); 404 when none does. */
    async formIdOf(accountId: string, id: string): Promise<string> {
      const formId = await store.formIdOf(accountId, id);
      if (formId === null) throw fail.submissionNotFound();
      return formId;
    },

    async get(accountId: string, formId: string, id: string): Promise<Submission> {
      const form = await forms.get(accountId, formId);
      const submission = await store.get(form.id, id);
      if (!submission) throw fail.submissionNotFound();
      return submission;
    },

    /** The owner marks a submission spam or not spam; the correction is recorded on it, and their spam checks learn from it. */
    async correctSpam(owner: { accountId: string; keyId: string; member?: string | null }, formId: string, id: string, spam: boolean): Promise<Submission> {
      const form = await forms.get(owner.accountId, formId);
      const results = await store.correctSpam(form.id, [id], spam, owner.keyId, clock().toISOString(), correctionEffects(queue, owner.accountId), owner.member ?? null);
      queue.wake();
      const result = results.get(id);
      if (result === 'missing') throw fail.submissionNotFound();
      if (result === 'unprocessed') throw fail.cannotUpdate('The submission has not been processed yet; correct its spam flag once it has.');
      deps.changed?.({ account: owner.accountId, form: form.id, type: 'verdicts' });
      return this.get(owner.accountId, formId, id);
    },

    async delete(accountId: string, formId: string, id: string): Promise<Submission> {
      const submission = await this.get(accountId, formId, id);
      const result = (await store.delete(formId, [id])).get(id);
      if (result === 'missing') throw fail.submissionNotFound();
      if (result === 'busy') throw fail.cannotDelete('The submission is being processed right now; try again in a moment.');
      deps.changed?.({ account: accountId, form: formId, type: 'submissions' });
      return submission;
    },
  };
}

export type SubmissionService = ReturnType<typeof submissionService>;

/**
 * A field the form gained after this endpoint was minted is "not a field" here, which reads as a
 * typo: say instead that the endpoint is an older version, and where the current one is.
 */
function olderEndpointHint(details: Record<string, string[]>, endpointVersion: FormVersion, form: FormRecord, currentEndpoint: string): Record<string, string[]> {
  if (endpointVersion.id === form.version.id) return details;
  const current = new Set(form.version.schema.fields.map((f) => f.name));
  const hint = `is a field of the form's current version, not of this older endpoint's: send to ${currentEndpoint}`;
  return Object.fromEntries(Object.entries(details).map(([field, messages]) => [
    field, current.has(field) ? messages.map((m) => (m === 'is not a field of this form' ? hint : m)) : messages,
  ]));
}
