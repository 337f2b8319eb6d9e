/**
 * The words of the pages svc draws itself (issue #34 item 4): the plain page a classic post may be
 * answered with, the page a payer lands on after paying, and the demo's pages. A catalogue of its
 * own beside messages-en.ts because no browser needs it: `<svc-form>` bundles the main catalogue
 * in six languages, and these pages are drawn on the server, so keeping them apart keeps them out
 * of the element's bundle. ICU
 * MessageFormat; the other languages list exactly these keys (page-messages.test.ts). A
 * placeholder such as `{link}` is filled with markup by the page that draws it.
 */
export const PAGE_MESSAGES_EN = {
  'page.thankYou': 'Thank you',
  'page.notSent': 'The form was not sent',
  'page.goBack': 'Go back to the form to continue.',

  // The page a payer lands on after a card payment (payments/payment-callback.ts).
  'payment.processing': 'Your payment is being processed; your submission is stored once it completes.',
  'payment.notCompleted': 'Payment not completed',
  'payment.cancelled': 'The payment was cancelled.',
  'payment.notThrough': 'The payment did not go through.',
  'payment.unmatched': 'The payment could not be matched to a submission; please contact the site owner.',
  'payment.tryAgain': '{reason} Nothing was submitted; please go back to the form and try again.',

  'demo.pageTitle': 'svc demo: example forms',
  'demo.heading': 'svc demo',
  'demo.intro': 'Each example form below is a {element} element talking to the service at {address}.',
  'demo.introMore': 'Add {base} to use another service; a saved draft resumes with {resume}.',
  'demo.classicLink': 'The same form drawn on the server from its properties JSON',
  'demo.classicLinkNote': '{link} (a plain HTML form; works without JavaScript).',
  'demo.languages': 'Language',
  'demo.sitesHeading': 'Sites and languages',
  'demo.sitesIntro': 'svc serves every form on every site, each in its site’s language. The manifests of the translated forms:',
  'demo.noTranslations': 'No form is translated for this site.',
  'demo.form.contact': 'Contact',
  'demo.form.application': 'Application (three pages, rules, drafts)',
  'demo.form.kitchen-sink': 'Kitchen sink (every field type)',
  'demo.form.job-application': 'Job application (files)',
  'demo.form.donation': 'Donation (card payment)',
  'demo.allForms': 'All demo forms',
  'demo.classicIntro': 'This page is drawn on the server from {source} alone and posts a plain {form}: it works with JavaScript turned off.',
  'demo.serverRendered': '{title} (server-rendered)',
  'demo.fillAgain': 'Fill it in again',
  'demo.saved': 'Saved. Continue later at {link}.',
  'demo.resumeLink': 'your resume link',
  'demo.honeypot': 'Leave this empty',
  'demo.pageOfLabel': 'Page {page} of {pages}: {label}',
  'demo.sending': 'Sending…',
  'demo.sendFailed': 'The form could not be sent; please try again.',
  'demo.ratingOf': '{value} of {count}',
  'demo.tableCell': '{column}, row {row}',
  'demo.tableFiles': 'Files: see the element demo',
  'demo.notDrawn': '{label}: this demo page draws no {type} field; the {link} does.',
  'demo.elementDemo': 'element demo',
  'demo.resumeTitle': 'svc demo: continue a saved form',
  'demo.resumeHeading': 'Continue a saved form',
  'demo.resumeNote': 'Your saved answers are filled in below; finish the form, or save it again for later.',
  'demo.resumeFor': 'Continue: {form}',
  'demo.resumeIncomplete': 'This link is incomplete: a resume link names the form and carries the draft’s token and key. Open the link you were given in full.',
  'demo.backToForm': 'Back to the form',
} as const;

export type PageMessageKey = keyof typeof PAGE_MESSAGES_EN;
export type PageMessageCatalogue = Readonly<Record<PageMessageKey, string>>;
