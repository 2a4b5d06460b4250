// Issue 35's tenth round: loan_offer, a loan offered without the checks a lender makes: "Pożyczka bez BIK do 20 000 zł",
// "Půjčka až 50 000 Kč bez registru", "prestiti tra privati … anche a protestati", "pautang … walang collateral",
// "no credit check". A customer asks about their own loan or credit limit ("can I raise my credit limit to $1000?",
// "could I get a loan without a guarantor?"); the offer states no need of its own. On the training and validation parts
// it fires on 27 web-form spam, 5 e-mail spam, one self-written text message and no legitimate message of any set
// (BANKING77's and CLINC150's credit questions included; English "credit" is no loan word here, as an e-mail ham quoting
// "credit the ideas … without" showed). Strong alone (1). The loan words and the checks are those of the training and validation parts'
// loans, in their languages (docs/spam.md, "Tenth round").
//
// Every gap is a bounded run of one class; matching stays linear (test/regex-audit.test.ts).

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { proseShape } from '../shape.ts';

const LOAN = String.raw`(?:\bloans?\b|\blending\b|\bkredit\p{L}{0,3}|\bcr[ée]dit(?:o|os|e)\b|\bcrédit\b|\bpr[êe]ts?\b|\bprestit[oi]\b|\bpr[ée]stamos?\b|\bempr[ée]stimos?\b|\bfinanziament\p{L}{0,2}|\bpo[żz]yczk\p{L}{0,2}|\bp[ůu]j[čc]k\p{L}{0,2}|\blening\b|\bl[åa]n\b|\blaina\b|\bhitel\p{L}{0,3}|\bîmprumut\p{L}{0,3}|\bpinjaman\b|\bpautang\b|\bmkopo\b|vay\sti[ềe]n|(?<!\p{L})(?:кредит\p{L}{0,3}|займ\p{L}{0,3}|позик\p{L}{0,2}|लोन|قرض))`;
/** The check left out, or the borrower a bank would turn away. */
const UNCHECKED = String.raw`(?:\bwithout\b|\bno\s(?:credit|collateral|paperwork|guarantor)|\bbad\scredit|\bbez\b|\bsin\s(?:aval|avales|n[óo]mina|consultar)|\bsans\s(?:frais|justificatif|condition)|\bsenza\s(?:garanzie|busta)|\bohne\s(?:schufa|bonit)|\bsem\s(?:consulta|comprova)|\bwalang\b|\btanpa\b|\bbila\s(?:dhamana|cagaran)|\bprotestati|\bcattivi\spagatori|\bnegativad|\bentre\sparticuliers|\bentre\sparticulares|\btra\sprivati|\bmezi\slidmi|(?<!\p{L})(?:बिना|без)(?!\p{L}))`;
const LOAN_UNCHECKED = new RegExp(String.raw`${LOAN}[^.?!\n]{0,80}${UNCHECKED}|${UNCHECKED}[^.?!\n]{0,60}${LOAN}`, 'u');

export function loanOfferSignal(text: SubmissionText): SignalHit | null {
  const found = LOAN_UNCHECKED.exec(text.leadingProse);
  if (!found) return null;
  if (proseShape(text).shape.has('h:need')) return null;
  return { id: 'loan_offer', weight: 1, detail: `a loan offered without the usual checks ("${found[0].trim().slice(0, 60)}")` };
}
