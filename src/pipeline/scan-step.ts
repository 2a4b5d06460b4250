// The first step when INTAKE_CLAMAV_URL is set: the submission's files are scanned before anything
// else, so no notification leaves before every file has a verdict. What it finds becomes the
// submission's processing reason (the dashboard, the API and webhooks show it); a scanner that does
// not answer throws ScannerUnavailable, and the processor holds the submission until it does.
import type { FileScanner } from '../files/scan.ts';
import type { Work } from './store.ts';

/** The processing reason naming every quarantined file, or null when none is (or the form takes no files). */
export async function scanStep(work: Work, scanner: FileScanner): Promise<string | null> {
  if (!work.fields.some((field) => field.type === 'file')) return null;
  const quarantined = await scanner.scanSubmission(work.submission.id);
  if (quarantined.length === 0) return null;
  const named = quarantined.map((file) => `${file.signature} in ${file.field} (${file.filename})`).join(', ');
  return `file_quarantined: ${named}`.slice(0, 500);
}
