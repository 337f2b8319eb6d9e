import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFormDefinitions } from './definition-loader.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function problemsOf(fieldsYaml: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-pay-forms-'));
  dirs.push(dir);
  await writeFile(join(dir, 'paid.yaml'), `name: Paid\nfields:\n${fieldsYaml}`);
  const { problems } = await loadFormDefinitions(dir);
  return problems.map((p) => `${p.path}: ${p.message}`);
}

const GIFT = '  - { type: select, handle: gift, label: Gift, options: ["10", "25"] }\n';
const NOTE = '  - { type: text, handle: note, label: Note }\n';
const pay = (extra: string) => `  - { type: payment, handle: pay, label: Card, gateway: stripe, currency: USD${extra} }\n`;

describe('payment fields in form files (issue #12)', () => {
  it('accepts a fixed amount, or an amount from a number, select or radioGroup field, and lower-cases the currency', async () => {
    expect(await problemsOf(pay(', amount: 25'))).toEqual([]);
    expect(await problemsOf(GIFT + pay(', amountFields: [gift]'))).toEqual([]);
    const dir = dirs[dirs.length - 1] as string;
    const [loaded] = (await loadFormDefinitions(dir)).definitions;
    expect(loaded?.definition.pages[0]?.rows.flat().find((f) => f.type === 'payment')).toMatchObject({ currency: 'usd', amountFields: ['gift'] });
  });

  it('refuses an amount field that is missing or not numeric', async () => {
    expect(await problemsOf(pay(', amountFields: [nope]'))).toEqual([expect.stringMatching(/amountFields\[0\].*no input field "nope"/)]);
    expect(await problemsOf(NOTE + pay(', amountFields: [note]'))).toEqual([expect.stringMatching(/amountFields\[0\].*"note" is a text field/)]);
  });

  it('refuses a payment field without any amount, bounds the wrong way round, and a fixed amount outside them', async () => {
    expect(await problemsOf(pay(''))).toEqual([expect.stringMatching(/needs `amount` or `amountFields`/)]);
    expect(await problemsOf(pay(', amount: 5, minAmount: 10, maxAmount: 2'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/maxAmount.*must not be less than minAmount/), expect.stringMatching(/amount.*must be between 10 and 2/)]),
    );
  });

  it('refuses a form with two payment fields', async () => {
    const second = '  - { type: payment, handle: pay2, label: Again, gateway: stripe, currency: usd, amount: 5 }\n';
    expect(await problemsOf(pay(', amount: 5') + second)).toEqual([expect.stringMatching(/at most one payment field/)]);
  });

  it('refuses an unknown gateway or currency code through the schema', async () => {
    const problems = await problemsOf('  - { type: payment, handle: pay, label: Card, gateway: paypal, currency: dollars, amount: 5 }\n');
    expect(problems.join('\n')).toMatch(/gateway/);
    expect(problems.join('\n')).toMatch(/currency/);
  });
});
