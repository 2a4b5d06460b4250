// Intake's own pages for visitors of a plain HTML form: the thank-you page and the error pages. Plain,
// accessible (a language, one heading, a list of problems) and readable at phone width; in the
// visitor's language when `_language` or the browser names one Intake speaks.
import escapeHtml from 'escape-html';
import type { AppError } from '../http/errors.ts';
import type { PageLanguage } from './special-fields.ts';

interface Messages {
  thanksTitle: string;
  thanksText: string;
  backTo: (host: string) => string;
  problemTitle: string;
  fixFields: string;
  goBack: string;
  useBack: string;
  titles: Record<number, string>;
  retryIn: (seconds: number) => string;
}

const MESSAGES: Record<PageLanguage, Messages> = {
  en: {
    thanksTitle: 'Thank you', thanksText: 'Your submission has been received.', backTo: (host) => `Back to ${host}`,
    problemTitle: 'The form could not be sent', fixFields: 'Please correct these fields and send the form again:',
    goBack: 'Go back to the form', useBack: "Use your browser's Back button to return to the form.",
    titles: { 401: 'This form is private', 403: 'This website may not send this form', 404: 'Form not found', 413: 'Too much data',
      415: 'The form could not be read', 429: 'Too many submissions', 500: 'Something went wrong', 503: 'Temporarily unavailable' },
    retryIn: (s) => `Please try again in ${s} second${s === 1 ? '' : 's'}.`,
  },
  de: {
    thanksTitle: 'Vielen Dank', thanksText: 'Ihre Eingabe ist angekommen.', backTo: (host) => `Zurück zu ${host}`,
    problemTitle: 'Das Formular konnte nicht gesendet werden', fixFields: 'Bitte korrigieren Sie diese Felder und senden Sie das Formular erneut:',
    goBack: 'Zurück zum Formular', useBack: 'Kehren Sie mit der Zurück-Taste Ihres Browsers zum Formular zurück.',
    titles: { 401: 'Dieses Formular ist privat', 403: 'Diese Website darf dieses Formular nicht senden', 404: 'Formular nicht gefunden', 413: 'Zu viele Daten',
      415: 'Das Formular konnte nicht gelesen werden', 429: 'Zu viele Einsendungen', 500: 'Etwas ist schiefgegangen', 503: 'Vorübergehend nicht verfügbar' },
    retryIn: (s) => `Bitte versuchen Sie es in ${s} Sekunde${s === 1 ? '' : 'n'} erneut.`,
  },
  fr: {
    thanksTitle: 'Merci', thanksText: 'Votre envoi a bien été reçu.', backTo: (host) => `Retour à ${host}`,
    problemTitle: "Le formulaire n'a pas pu être envoyé", fixFields: 'Veuillez corriger ces champs et renvoyer le formulaire :',
    goBack: 'Retour au formulaire', useBack: 'Utilisez le bouton Retour de votre navigateur pour revenir au formulaire.',
    titles: { 401: 'Ce formulaire est privé', 403: "Ce site ne peut pas envoyer ce formulaire", 404: 'Formulaire introuvable', 413: 'Trop de données',
      415: "Le formulaire n'a pas pu être lu", 429: "Trop d'envois", 500: 'Une erreur est survenue', 503: 'Temporairement indisponible' },
    retryIn: (s) => `Veuillez réessayer dans ${s} seconde${s === 1 ? '' : 's'}.`,
  },
  es: {
    thanksTitle: 'Gracias', thanksText: 'Hemos recibido su envío.', backTo: (host) => `Volver a ${host}`,
    problemTitle: 'No se pudo enviar el formulario', fixFields: 'Corrija estos campos y envíe el formulario de nuevo:',
    goBack: 'Volver al formulario', useBack: 'Use el botón Atrás de su navegador para volver al formulario.',
    titles: { 401: 'Este formulario es privado', 403: 'Este sitio web no puede enviar este formulario', 404: 'Formulario no encontrado', 413: 'Demasiados datos',
      415: 'No se pudo leer el formulario', 429: 'Demasiados envíos', 500: 'Algo salió mal', 503: 'No disponible temporalmente' },
    retryIn: (s) => `Inténtelo de nuevo en ${s} segundo${s === 1 ? '' : 's'}.`,
  },
};

function page(language: PageLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font:1.0625rem/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;overflow-wrap:anywhere}
h1{font-size:1.5rem}a{color:#0b57d0}li{margin:.25rem 0}</style></head>
<body><main>
${body}
</main></body></html>`;
}

/** A link the visitor may follow back: only to an http(s) page. */
function backLink(url: string | null, text: string): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return `<p><a href="${escapeHtml(parsed.href)}">${escapeHtml(text)}</a></p>`;
  } catch {
    return null;
  }
}

export function thanksPage(language: PageLanguage, formName: string, back: string | null): string {
  const m = MESSAGES[language];
  const host = back ? new URL(back).host : '';
  return page(language, `${m.thanksTitle} · ${formName}`, [
    `<h1>${escapeHtml(m.thanksTitle)}</h1>`,
    `<p>${escapeHtml(formName)}: ${escapeHtml(m.thanksText)}</p>`,
    backLink(back, m.backTo(host)) ?? '',
  ].join('\n'));
}

/** The page for any failure; a 5xx says nothing of what went wrong inside. */
export function errorPage(language: PageLanguage, error: AppError, back: string | null): string {
  const m = MESSAGES[language];
  const status = error.status;
  const title = error.code === 'validation_error' ? m.problemTitle : m.titles[status] ?? m.titles[status >= 500 ? 500 : 415]!;
  const parts = [`<h1>${escapeHtml(title)}</h1>`];
  if (error.code === 'validation_error' && error.details) {
    const items = Object.entries(error.details).map(([field, problems]) =>
      `<li><strong>${escapeHtml(field)}</strong>: ${escapeHtml(problems.join('; '))}</li>`);
    parts.push(`<p>${escapeHtml(m.fixFields)}</p>`, `<ul>\n${items.join('\n')}\n</ul>`);
  } else if (status < 500) {
    parts.push(`<p>${escapeHtml(error.message)}</p>`);
  }
  const retryAfter = error.extra.retry_after;
  if (typeof retryAfter === 'number') parts.push(`<p>${escapeHtml(m.retryIn(retryAfter))}</p>`);
  parts.push(backLink(back, m.goBack) ?? `<p>${escapeHtml(m.useBack)}</p>`);
  return page(language, title, parts.join('\n'));
}
