// What short spam (comment spam, text-message spam) does in a line or two: invites the reader to
// follow, subscribe or visit a channel; claims easy money or crypto gains; and pushes a messaging
// handle as the way to answer (prizes and premium numbers: text-message.ts). Each pattern names the
// sender's own channel or a claim made to the reader, so enquiries that mention subscribing, prices, money or a
// phone number ("how do I subscribe to your newsletter?", "call me back on +44 …") do not match.
//
// Matched against the start of the folded, lower-cased prose, whitespace runs made one space
// (SubmissionText.leadingProse). Every quantifier is bounded or sits between disjoint character
// classes, so matching stays linear however hostile the text.

import type { SignalHit } from '../types.ts';
import type { SubmissionText } from '../submission-text.ts';
import { unionOf, type PatternUnion } from '../pattern-union.ts';

interface Pattern { label: string; pattern: RegExp; weight: number }
const pattern = (label: string, regex: RegExp, weight: number): Pattern => ({ label, pattern: regex, weight });
/** A list and the union of its patterns, asked first (pattern-union.ts). */
interface PatternList { patterns: readonly Pattern[]; any: PatternUnion }
const listOf = (patterns: readonly Pattern[]): PatternList => ({ patterns, any: unionOf(patterns.map((candidate) => candidate.pattern)) });

const CHANNEL = String.raw`(?:youtube\s|yt\s|new\s|latest\s)?(?:channel|videos?|vids?|music|songs?|tracks?|profile|page|playlist|covers?|instagram|insta|tiktok|twitch|stream|vlog|mixtape|album|feed)`;
const SITE = String.raw`(?:web\s?site|site|blog|shop|store)`;

/** Invitations to follow, subscribe or visit the sender's channel or profile. */
const SELF_PROMOTION = listOf([
  pattern('asks you to subscribe', /\bsu(?:b?s|bs?)cribe\s(?:to\s|on\s)?(?:my|our)\b(?!\s(?:mum|mom|mother|dad|father|parents|son|daughter|kids|children|wife|husband|partner|friend|sister|brother|team|staff|company|office|school|colleagues?)\b)|\bsubscribe\sto\s(?:me|us)\b|\bcome\ssubscribe\b|^(?:please\s)?subscribe[!.]?$|\bsubscribe\s(?:me|us)\b(?!\s(?:to|for|on)\b)|\bsub\s?(?:4|for)\s?sub\b|\b(?:please|pls|plz)\ssu(?:b?s|bs?)cribe\b(?!\s(?:me|us)\b)|\bsubscribe\s(?:please|pls|plz|guys|and\s(?:i|u|you|enjoy|like|share))\b|\b(?:hit|click\s(?:on\s)?(?:the\s)?)subscribe\b|(?<!\b(?:i|we|if|to|can|should|would|could|will)\s)\bsubscri(?:be|ble)\s(?:now|back|u\sback)\b|\blike\s?(?:&|and)\s?subscri(?:be|ble)\b|\bwatch\sand\ssubscri(?:be|ble)\b|\bsub\s(?:me|back)\b/u, 1),
  pattern('asks you to follow', /\bfollow\s(?:me|us)\s(?:on|at|back|for|and|please|pls|plz)\b|\bfollow\s(?:4|for)\s?follow\b|\bf4f\b|\bl4l\b|\bfollow\sback\b|\bfollow\s(?:me|us)\s?(?:[@!:-]|$)/u, 1),
  pattern('invites you to their channel', new RegExp(String.raw`\b(?:check|visit|see|watch|listen\sto|view|go\sto|look\sat)\s(?:out\s)?(?:my|our)\s${CHANNEL}\b|\bcheck\s(?:it\s)?out\s(?:my|our)\s(?:\w{1,20}\s)?(?:channel|videos?|covers?|music|songs?|rapping|beats|stuff)\b|\b(?:check\s(?:out\s)?|take\sa\slook\sat\s|look\sat\s|watch\s)this\s(?:video|playlist|channel|song|track)\b|\bsubscribe\sand\swin\b`, 'u'), 1),
  pattern('asks for likes or votes', /\b(?:like|share|thumbs\sup)\s(?:this|my|our)\s(?:comment|page|video|post|pic|picture|photo)\b|\b(?:please\svote|vote\s(?:for\s)?(?:me|us|daily|please))\b|\blike\s(?:this\s)?(?:page|comment)\s(?:please|pls|plz|yo)\b|\blike\sif\s(?:you|u|ur)\b|\bgive\s(?:it|this|me)\sa\s(?:like|thumbs\sup)\b/u, 1),
  pattern('invites you to subscribe', /suscr[ií]b(?:ete|anse|irse)|inscreva-se|abonn(?:iert|ez-vous|ieren\ssie)|подпиш(?:ись|итесь)|チャンネル登録|订阅我的|구독\s?부탁/u, 1),
  pattern('advertises their channel', new RegExp(String.raw`\b(?:check|visit|see)\s(?:out\s)?(?:my|our)\s${SITE}\b|\bmy\s(?:new\s|youtube\s|yt\s)?channel\b|\bhelp\sme\s(?:get|reach)\s(?:to\s)?(?:\d|more\s(?:subs|views|likes|followers))|\b\d{2,7}\ssub(?:scriber)?s\b|\bsubscribers\s(?:this|by)\b`, 'u'), 0.5),
]);

/** Earning, as a promise to the reader (issue 35's tenth round): the verbs of the training parts' money scams. */
const EARN = String.raw`(?:\bearn(?:ing|ed)?\b|\bgan(?:a|ar|e|he|har)\b|\bverdien(?:en|t|st)\b|\bzarab(?:iaj|iasz|ia[ćc])|\bzarobi(?:[łl]em|sz)|\bkazan(?:[ıi]n|mak|ç)|\bguadagn(?:a|are|i)\b|\bgagne[rz]?\b|\bзаработ\p{L}{0,6}|(?<!\p{L})(?:اربح|کمائیں))`;
/** By the day, week or month (not the hour). */
const PERIOD = String.raw`(?:\b(?:daily|a\sday|per\sday|a\sweek|per\sweek|weekly|a\smonth|per\smonth|monthly|diari[oa]s?|al\sd[íi]a|por\sd[íi]a|semanales|mensuales|pro\stag|am\stag|t[äa]glich|w[öo]chentlich|monatlich|dziennie|tygodniowo|miesi[ęe]cznie|w\smiesi[ąa]c|g[üu]nde|g[üu]nl[üu]k|haftal[ıi]k|ayl[ıi]k|par\sjour|par\ssemaine|par\smois|al\sgiorno|a\ssettimana|al\smese|por\sdia|por\ssemana|por\sm[êe]s)(?!\p{L})|в\s(?:день|неделю|месяц)|(?<!\p{L})(?:شهريا|يوميا|روزانہ))`;

/** Money and crypto claims made to the reader (prizes: signals/text-message.ts). */
const CLAIMS = listOf([
  pattern('free goods offer', /\b(?:win|get|grab)\s(?:a\s|an\s|your\s)?free\s(?:iphone|ipad|gift\s?cards?|itunes|robux|v-?bucks|psn|xbox|money|cash|bitcoin|crypto|followers|subscribers|likes|views)\b|\bfree\s(?:itunes|robux|v-?bucks|psn|amazon|steam|xbox)\b[^.]{0,12}\b(?:codes?|cards?|gift\s?cards?)\b/u, 1),
  pattern('easy money', /\b(?:earn|make|making|get\spaid)\s(?:up\sto\s)?(?:\$|£|€)\s?\d|\b(?:get\spaid|paid)\sto\s(?:mess\saround|surf|watch|click|like)\b|\b(?:easiest|easy|free|quick)\s(?:money|cash|income)\b|\bmak(?:e|ing)\s(?:some\s|a\slot\sof\s)?(?:extra\s)?money\s(?:today|now|online|fast|easily|from\shome)\b|\bpassive\sincome\b|\bfinancial\sfreedom\b/u, 0.8),
  // Issue 35's tenth round: an income promised by the day, week or month in the languages of the training and
  // validation parts' crypto and job scams ("Gana hasta 800 USD diarios", "Zarabiaj nawet 5000 zł tygodniowo", "günde
  // 2000 TL kazanmak", "verdienen … täglich zwischen 300 und 800 Euro", "روزانہ 5000 روپے کمائیں"). Not "make" (a bakery
  // makes 200 loaves a day) and not by the hour (a job seeker's last wage).
  pattern('income promise', new RegExp(String.raw`${EARN}[^.\n]{0,40}\d[^.\n]{0,30}${PERIOD}|${EARN}[^.\n]{0,20}${PERIOD}[^.\n]{0,30}\d|${PERIOD}[^.\n]{0,30}\d[^.\n]{0,30}${EARN}`, 'u'), 1),
  pattern('work from home', /\b(?:work|working)\sfrom\s(?:the\scomfort\sof\s)?(?:your\s)?home\b/u, 0.4),
  pattern('asks for donations', /\bgofundme\b|\bindiegogo\b|\bdonate\s(?:please|now|here|to\s(?:me|us|my|our))\b|\bsponsor\s(?:me|my)\b|\bplease\ssupport\s(?:me|us)\b/u, 0.5),
  pattern('pay rate pitch', /(?:\$|£|€)\s?\d{1,5}(?:[.,]\d{1,3})?\s?(?:\/|per\s|an\s|a\s)(?:hour|hr|day)\b/u, 0.6),
  pattern('crypto scheme', /\b(?:crypto(?:currency)?|bitcoin|btc|eth|usdt|forex|binary\soptions?)\b[^.\n]{0,40}\b(?:invest\w{0,6}|trading\s(?:bots?|signals|platform)|profits?|returns?|earn\w{0,4}|giveaway|airdrop|doubl\w{0,3}|signals?|mining)\b|\bairdrop\b|\bdouble\syour\s(?:money|bitcoin|btc|crypto|investment)\b/u, 1),
]);

/** Messaging handles pushed as the way to reply (premium numbers and shortcodes: signals/text-message.ts). */
const CONTACT_PUSH = listOf([
  pattern('messaging handle', /\b(?:whats\s?app|telegram|wechat|viber|kik|snapchat)\b[^.]{0,20}?(?:\+?\d[\d\s().-]{5,18}\d|(?:\s|:)@[a-z0-9_]{3,32}(?![\w.@-]))|\b(?:add|dm|message|contact|text|reach)\s(?:me|us)\s(?:on|via|at)\s(?:whats\s?app|telegram|wechat|kik|snapchat|instagram|insta|ig)\b|\bdm\s(?:me|us)\sfor\b|\bt\.me\//u, 0.5),
]);

export function selfPromotionSignal(text: SubmissionText): SignalHit | null {
  return matched('self_promotion', SELF_PROMOTION, text, 1.2);
}

export function moneyClaimSignal(text: SubmissionText): SignalHit | null {
  return matched('money_claim', CLAIMS, text, 1.2);
}

export function contactPushSignal(text: SubmissionText): SignalHit | null {
  return matched('contact_push', CONTACT_PUSH, text, 1);
}

/** The labels of every pattern that matches, with their weights summed up to `cap`. */
function matched(id: string, list: PatternList, text: SubmissionText, cap: number): SignalHit | null {
  if (!list.any.test(text.leadingProse)) return null;
  const hits = list.patterns.filter((candidate) => candidate.pattern.test(text.leadingProse));
  if (hits.length === 0) return null;
  const weight = Math.min(cap, hits.reduce((sum, hit) => sum + hit.weight, 0));
  return { id, weight, detail: hits.map((hit) => hit.label).join(', ') };
}
