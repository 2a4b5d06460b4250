// A submission's processing status and spam flag as badges, on the inbox and the submission page.
import type { Submission } from '../../submissions/store.ts';
import { html, type Html } from '../html.ts';

export function statusBadge(s: Submission): Html {
  const spam = s.spam_flag ? html`<span class="badge spam">spam</span>` : '';
  return html`<span class="badge status-${s.processing_status}">${s.processing_status}</span>${spam}`;
}
