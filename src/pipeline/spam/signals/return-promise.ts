// Issue 35's twelfth round: return_promise, a return promised by the day, week or month as a percentage ("3% per day",
// "4% diario", "12% par mois", "garantált havi 25%-os hozammal") beside a word for investing, depositing or profit. No
// bank, fund or shop a form owner deals with pays a daily or monthly percentage; crypto schemes and their "AI trading
// bots" promise nothing else. money_claim reads an income in a currency ("800 USD diarios"); this reads the percentage.
//
// Its near-miss twins: a customer asking about their own rate ("What is the interest rate per month on my card?": the
// first person), and a shop's discount ("10% off every month for members": no investing or profit). Yearly rates are not
// read (a savings account's "2.5% per year"). Pinned in test/spam-twelfth-round.test.ts.
//
// The period and profit words are those of the training and validation parts' crypto and investment spam and their
// languages. Matched on the lower-cased leading prose; every gap is a bounded run of one class, so matching stays linear.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { speaksOfTheirOwn } from './first-person.ts';

export const RETURN_PROMISE_WEIGHT = 0.95;

const PERIOD = String.raw`(?:daily|a\sday|per\sday|each\sday|every\sday|weekly|a\sweek|per\sweek|monthly|a\smonth|per\smonth|diari[ao]s?|al\sd[íi]a|por\sd[íi]a|mensual(?:es)?|al\smes|par\sjour|quotidien(?:ne)?s?|par\smois|mensuel(?:le)?s?|pro\s(?:tag|woche|monat)|t[äa]glich|monatlich|al\sgiorno|giornalier[oi]|al\smese|mensil[ei]|por\sdia|ao\sdia|di[áa]ri[oa]s?|por\sm[êe]s|ao\sm[êe]s|mensal|mensais|per\sdag|per\smaand|dziennie|miesi[ęe]cznie|в\sдень|в\sмесяц|ежедневно|в\sдобу|на\sмісяць|g[üu]nl[üu]k|ayl[ıi]k|g[üu]nde|havi|napi|denně|měsíčně|per\shari|sehari|sebulan|m[ỗo]i\sng[àa]y|h[àa]ng\sng[àa]y|يوميا|شهريا|每天|每日|日利|月利|毎日|하루|매일)`;
const PERCENT = String.raw`\d{1,3}(?:[.,]\d{1,2})?\s?%`;
const RETURN = new RegExp(String.raw`${PERCENT}(?:-\p{L}{1,4})?[^.?!\n\d%]{0,24}?${PERIOD}|${PERIOD}[^.?!\n\d%]{0,24}?${PERCENT}`, 'u');
/** Investing, depositing or profit: what makes the percentage a return and not a discount. */
const PROFIT = /(?<!\p{L})(?:invest\p{L}{0,6}|deposit\p{L}{0,3}|profits?|returns?|yield|earn\p{L}{0,3}|interest|crypto\p{L}{0,8}|bitcoin|usdt|trading|fund|rendement|rentabilidad|ganancias?|inversi[óo]n|invierte|rendite|gewinn\p{L}{0,2}|rendimento|lucro|investiment\p{L}{0,2}|investe|zysk\p{L}{0,2}|inwest\p{L}{0,6}|доход\p{L}{0,2}|прибыл\p{L}{0,2}|инвест\p{L}{0,6}|kazan\p{L}{0,4}|getiri|yat[ıi]r[ıi]m|hozam\p{L}{0,4}|befektet\p{L}{0,4}|keuntungan|l[ợo]i\snhu[ậa]n|أرباح|ربح|استثمر|收益|利润|投资|利益|投資|수익|투자)(?!\p{L})/u;

export function returnPromiseSignal(text: SubmissionText): SignalHit | null {
  const prose = text.leadingProse;
  if (!prose.includes('%')) return null;
  const found = RETURN.exec(prose);
  if (!found || !PROFIT.test(prose) || speaksOfTheirOwn(prose)) return null;
  return { id: 'return_promise', weight: RETURN_PROMISE_WEIGHT, detail: `a return promised by the day, week or month ("${found[0].slice(0, 40)}")` };
}
