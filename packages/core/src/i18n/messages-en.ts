/**
 * The source catalogue (DESIGN.md principle 10): every built-in sentence a person reads, as ICU
 * MessageFormat. The other languages list exactly these keys with the same placeholders
 * (message-catalogue.test.ts). Counts are written `{max}` rather than `#`: `#` groups digits
 * ("1,000"), and these messages quote limits as the form file writes them.
 */
import { ERROR_CATALOGUE, type ErrorCode } from '../error-catalogue.js';

const FIELD_AND_ELEMENT_MESSAGES = {
  'field.required': 'This field is required',
  'field.notText': 'This value must be text',
  'field.notList': 'This value must be a list',
  'field.tooManyItems': 'Choose at most {max, plural, one {{max} item} other {{max} items}}',
  'field.textTooLong': 'Must be at most {max, plural, one {{max} character} other {{max} characters}}',
  'field.invalidEmail': 'Enter a valid email address',
  'field.invalidPhone': 'Enter a valid phone number',
  'field.phoneFormat': 'Enter a phone number in the format {pattern}',
  'field.patternMismatch': 'This value is not valid',
  'field.mismatch': 'The values do not match',
  'field.notNumber': 'Enter a number',
  'field.negative': 'Must not be negative',
  'field.wholeNumber': 'Must be a whole number',
  'field.tooManyDecimals': 'Must have at most {max, plural, one {{max} decimal place} other {{max} decimal places}}',
  'field.belowMin': 'Must be at least {min}',
  'field.aboveMax': 'Must be at most {max}',
  'field.tooFewDigits': 'Must have at least {min, plural, one {{min} digit} other {{min} digits}}',
  'field.invalidOption': 'Choose one of the listed options',
  'field.chooseOne': 'Choose one option',
  'field.invalidCheckbox': 'This value must be checked or unchecked',
  'field.invalidOptIn': 'This value must be yes or no',
  'field.invalidRating': 'Choose a rating from 1 to {max}',
  'field.invalidDate': 'Enter a valid date in the format {format}',
  'field.invalidTime': 'Enter a valid time in the format {format}',
  'field.invalidDateTime': 'Enter a valid date and time in the format {format}',
  'field.dateBeforeMin': 'Must be on or after {min}',
  'field.dateAfterMax': 'Must be on or before {max}',
  'field.invalidSignature': 'The signature is not a valid image',
  'field.signatureTooLarge': 'The signature must be at most {max} KB',
  'field.invalidUpload': 'An uploaded file reference is not valid',
  'field.invalidPayment': 'The payment reference is not valid',
  'field.paymentRequired': 'Complete the payment to submit this form',
  'field.tooManyFiles': 'Upload at most {max, plural, one {{max} file} other {{max} files}}',
  'field.notTable': 'This value must be a list of rows',
  'field.tooManyRows': 'Must have at most {max, plural, one {{max} row} other {{max} rows}}',
  'field.rowInvalid': 'Row {row} must be a list of cells',
  'field.cellRequired': 'Row {row}: {column} is required',
  'field.cellNotText': 'Row {row}: {column} must be text',
  'field.cellNotNumber': 'Row {row}: {column} must be a number',
  'field.cellNotCheckbox': 'Row {row}: {column} must be checked or unchecked',
  'field.cellNotFiles': 'Row {row}: {column} must be a list of uploaded files',
  'field.cellTooManyFiles': 'Row {row}: {column} takes at most {max, plural, one {{max} file} other {{max} files}}',
  'field.cellInvalidOption': 'Row {row}: {column} must be one of the listed options',
  'field.column': 'Column {number}',

  'element.loadingForm': 'Loading form…',
  'element.loading': 'Loading…',
  'element.loadFailed': 'The form could not be loaded: {reason}',
  'element.somethingWrong': 'Something went wrong. Please try again.',
  'element.draftMissing': 'The saved draft could not be found or has expired; please fill the form in again.',
  'element.submit': 'Submit',
  'element.back': 'Back',
  'element.saveLater': 'Save and continue later',
  'element.savedLink': 'Your answers are saved. Use this link to continue later:',
  'element.pageOf': 'Page {page} of {pages}',
  'element.thankYou': 'Thank you.',
  'element.choose': 'Choose…',
  'element.locked': 'Filled in for you; it cannot be changed here.',
  'element.uploadedFiles': 'Uploaded files for {label}',
  'element.uploadedFile': 'Uploaded file',
  'element.remove': 'Remove',
  'element.removeFile': 'Remove {name}',
  'element.dropFiles': '{max, plural, one {Or drop a file here.} other {Or drop up to {max} files here.}}',
  'element.fileNotAllowed': '"{name}" is not an allowed type of file (allowed: {kinds})',
  'element.fileTooLarge': '"{name}" is larger than {size}',
  'element.fileEmpty': '"{name}" is empty',
  'element.addRow': 'Add a row',
  'element.actions': 'Actions',
  'element.clearSignature': 'Clear signature',
  'element.typeToSign': 'Type your name to sign',
  'element.paymentsNotConfigured': 'Payments are not configured on this server, so this form cannot be submitted.',
  'element.paymentFailed': 'The payment could not be completed. Please try again.',
  'element.paymentCheckCard': 'The payment could not be completed. Please check your card details.',
  'element.checkingAnswers': 'Checking your answers…',
  'element.processingPayment': 'Processing your payment…',
  'element.paymentAccepted': 'Payment accepted. Finishing your submission…',
  'element.loadingPaymentForm': 'Loading the payment form…',
  'element.paymentFormFailed': 'The payment form could not be loaded.',
  'element.updatingAmount': 'Updating the amount…',
  'element.amountToPay': 'Amount to pay: {amount}',

  // The built-in email layout's own words (issue #34 item 4); labels and names come from the form.
  'email.subject': 'New submission: {form}',
  'email.subjectTitled': 'New submission: {form} ({title})',
  'email.files': 'Files:',
  'email.fileLine': 'File: {name} ({size})',
  'email.fileSize': '{size, plural, one {{size} byte} other {{size} bytes}}',
  'email.download': 'download',
  'email.yes': 'Yes',
  'email.no': 'No',
} as const;

type ErrorMessageKey = `error.${ErrorCode}`;

/** The error catalogue's own English messages, so they are written once (error-catalogue.ts). */
const ERROR_MESSAGES = Object.fromEntries(
  Object.entries(ERROR_CATALOGUE).map(([code, entry]) => [`error.${code}`, entry.message]),
) as Record<ErrorMessageKey, string>;

export const MESSAGES_EN: Readonly<Record<keyof typeof FIELD_AND_ELEMENT_MESSAGES | ErrorMessageKey, string>> = {
  ...FIELD_AND_ELEMENT_MESSAGES,
  ...ERROR_MESSAGES,
};

export type MessageKey = keyof typeof MESSAGES_EN;
export type MessageCatalogue = Readonly<Record<MessageKey, string>>;
