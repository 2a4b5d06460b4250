// Shapes forms for the API. Secrets (token hash, webhook secret) are never part of any output.
import type { FormRecord, FormVersion } from './store.ts';

export function endpointUrl(baseUrl: string, version: Pick<FormVersion, 'segment' | 'slug'>): string {
  return `${baseUrl}/api/${version.segment}/f/${version.slug}`;
}

/** Where a plain HTML form posts: beside the JSON endpoint, with the same versioned segment. */
export function htmlEndpointUrl(baseUrl: string, version: Pick<FormVersion, 'segment' | 'slug'>): string {
  return `${baseUrl}/f/${version.segment}/${version.slug}`;
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
    html_endpoint: htmlEndpointUrl(baseUrl, form.version),
    schema: form.version.schema,
    version: form.version.number,
    updated_at: form.updatedAt,
    ...settings,
  };
}
