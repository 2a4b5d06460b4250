// Issue 35's twelfth round: support_pitch, a fake support line without the words support_number needs. The sender names a
// problem the reader is supposed to have ("Printer not printing?", "Problème avec votre compte … ?", "¿Problemas con su
// cuenta …?", "wallet locked or missing funds?") and tells them to call a number ("Call …", "Appelez le …", "Llame al …",
// "Ligue agora para …"). support_number reads a brand beside "support number", "helpline" or "24/7"; the fake lines in the
// training and validation parts that it missed named a brand it does not list, or a service desk in other words.
//
// Its near-miss twins: a customer with a problem of their own who leaves a number to call back ("my printer is offline,
// please call me on …": the first person), and a question about the owner's own service ("Is your repair shop open on
// Saturday? Call 0161 …" names no problem of the reader's). Pinned in test/spam-twelfth-round.test.ts.
//
// The problem words and the call words are those of the training and validation parts' fake support lines (English,
// German, French, Spanish, Italian, Portuguese, Dutch). Matched on the lower-cased leading prose; every gap is a bounded
// run of one class, so matching stays linear (test/regex-audit.test.ts).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { speaksOfThemselves } from './first-person.ts';

/** Alone enough under `standard`, and in a short text under `intelligent` (classifier-verdict.ts). */
export const SUPPORT_PITCH_WEIGHT = 0.95;

/** The reader's problem: "problems with your …", "your … is locked", "not printing?", "account limited?". */
const YOUR_PROBLEM = /\b(?:problems?|issues?|trouble|errors?|probleme|problème|problemas?|problemi|problemen|st[öo]rung)\s(?:with|mit|avec|con|com|met)\s(?:your|ihre[mnr]?|votre|vos|su|sus|tu|tus|il\s(?:tuo|suo)|la\s(?:tua|sua)|(?:o\s|a\s)?(?:seu|sua)|uw|je)\b|\b(?:not\s(?:printing|working|opening|responding|connecting)|showing\soffline|printer\soffline|offline\serror|login\sproblems?|locked\sor\smissing|(?:wallet|account)\s(?:locked|limited|suspended|hacked)|mot\sde\spasse\soubli[ée]|compte\spirat[ée]|no\spuede\sacceder|n[ãa]o\sconsegue\sacessar|non\sriesci\sad\saccedere|kein\szugriff|gesperrtes\skonto|konto\sgesperrt)\b/u;
/**
 * The reader's device or account said to fail or to have lapsed, with "your" before it (thirteenth round): "Il tuo router
 * non funziona", "your Windows license key has expired", "Ihr Drucker funktioniert nicht".
 */
const YOURS_FAILING = /\b(?:your|il\stuo|la\stua|il\ssuo|ihr(?:e)?|votre|tu|su|o\sseu|a\ssua|seu|sua|uw|je)\s(?:[\p{L}-]{1,15}\s){0,3}(?:(?:has|have|is|are)\s(?:expired|been\s(?:blocked|suspended|locked|hacked|compromised)|infected|locked|blocked)|non\sfunziona|[èe]\sbloccat[ao]|funktioniert\snicht|ist\sabgelaufen|ne\sfonctionne\splus|ne\sfonctionne\spas|a\sexpir[ée]|no\sfunciona|ha\scaducado|n[ãa]o\sfunciona|werkt\sniet|is\sverlopen)\b/u;
/** The failing words of YOURS_FAILING, asked before it. */
const FAILING_WORD = /expired|blocked|locked|hacked|compromised|infected|funziona|bloccat|funktioniert|abgelaufen|fonctionne|expir|funciona|caducado|werkt\sniet|verlopen/u;
/** Told to call a number: the imperative, then a long number within a few words. */
const CALL_NUMBER = /\b(?:call|dial|ring|phone|contact|speak\sto|rufen\ssie|anrufen|appelez|contactez|llame|llama|ll[áa]menos|ligue|chiama|chiamate|contatta|bel|neem\scontact)\b[^.?!\n]{0,50}?\+?\d[\d\s().-]{8,18}\d/u;

export function supportPitchSignal(text: SubmissionText): SignalHit | null {
  const prose = text.leadingProse;
  // YOURS_FAILING only where one of its failing words is (unanchored stems, a fast scan): most messages hold none.
  const problem = YOUR_PROBLEM.exec(prose) ?? (FAILING_WORD.test(prose) ? YOURS_FAILING.exec(prose) : null);
  if (!problem || !CALL_NUMBER.test(prose) || speaksOfThemselves(prose)) return null;
  return { id: 'support_pitch', weight: SUPPORT_PITCH_WEIGHT, detail: `a problem of yours ("${problem[0].slice(0, 40)}") and a number to call about it` };
}
