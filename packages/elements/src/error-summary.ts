/**
 * The form-level error box (`part="form-errors"`, role=alert): the message of a refused step
 * and the errors no rendered field can show. It is kept in step with the fields as the person
 * fixes them (issue #11): the message stays while a field error remains and goes with the last
 * one, so a form with nothing left to fix does not still say it has errors.
 */
import { h } from './dom-builder.js';

/**
 * @example
 * const summary = new ErrorSummary();
 * form.prepend(summary.element);
 * summary.show('Please correct the errors below.', [], true); // after a refused step
 * summary.update(false);                                       // the last field error was fixed: empty again
 */
export class ErrorSummary {
  readonly element = h('div', { part: 'form-errors', class: 'form-errors', role: 'alert' });
  #message: string | null = null;
  #errors: readonly string[] = [];
  /** What the box shows now, so a re-check that changes nothing writes nothing. */
  #shown = '';

  /** After an answer: its message, and the form's errors plus those of fields not shown here. */
  show(message: string | null, errors: readonly string[], fieldsInvalid: boolean): void {
    this.#message = message;
    this.#errors = errors;
    // Every answer is written, even one like the last: a second refused step is announced too.
    this.#shown = '';
    this.update(fieldsInvalid);
  }

  /**
   * After fields were checked again: the errors no field shows cannot be fixed here, so they
   * stay; the message stays only while some error, on a field or here, remains.
   */
  update(fieldsInvalid: boolean): void {
    const message = fieldsInvalid || this.#errors.length > 0 ? this.#message : null;
    const list = this.#errors.filter((e) => e !== message);
    const shown = JSON.stringify([message, list]);
    // Rewriting the same text would make the alert announce it again as the person types.
    if (shown === this.#shown) return;
    this.#shown = shown;
    this.element.replaceChildren(
      ...(message ? [h('p', {}, message)] : []),
      ...(list.length > 0 ? [h('ul', {}, list.map((e) => h('li', {}, e)))] : []),
    );
  }
}
