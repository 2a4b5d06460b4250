// Shapes forms for the API. Secrets (token hash, webhook secret) are never part of any output.
import type { FormRecord, FormVersion } from './store.ts';

export function endpointUrl(baseUrl: string, version: Pick<FormVersion, 'segment' | 'slug'>): string {
  return `${baseUrl}/api/${version.segment}/f/${version.slug}`;
}

export function presentFormSummary(form: FormRecord, baseUrl: string) {
  return {
    id: form.id,
    name: form.name,
    slug: form.slug,
    visibility: form.visibility,
    submission_count: form.submissionCount,
    created_at: form.createdAt,
    endpoint: endpointUrl(baseUrl, form.version),
  };
}

export function presentForm(form: FormRecord, baseUrl: string) {
  const { webhook_secret: _secret, captcha_secret: _captchaSecret, ...settings } = form.settings;
  return {
    ...presentFormSummary(form, baseUrl),
    schema: form.version.schema,
    version: form.version.number,
    updated_at: form.updatedAt,
    ...settings,
  };
}
