import { describe, expect, it } from 'vitest';
import { createKeyring, sealBytes, sealText, secretKek } from './privacy-keyring.js';
import { createValueSealer, openSubmissionColumns, openSubmissionValues, sealSubmissionColumns } from './privacy-sealer.js';

const kek = secretKek('s'.repeat(40));
const sealer = createValueSealer(createKeyring([kek], 'secret'));

describe('a submission sealed at rest', () => {
  it('keeps its title and values in one envelope bound to its uid', () => {
    const seal = sealer.forNew();
    const title = 'Zoë: 3 “quotes” 🎉';
    const stored = { uid: 'u1', ...sealSubmissionColumns(seal, 'u1', '{"firstName":"Zoë"}', title), data_key: seal.wrapped };
    expect(stored.title).toBe('');
    // Base64url text: no quote or non-ASCII letter of the plain text can appear in it by chance.
    expect(stored.values).not.toMatch(/firstName|Zoë|"/);
    expect(openSubmissionColumns(sealer, stored)).toEqual({ title, values: '{"firstName":"Zoë"}' });
    expect(openSubmissionValues(sealer, stored)).toEqual({ firstName: 'Zoë' });
    // Moved to another row, or its key swapped for another row's, it opens nothing.
    expect(openSubmissionColumns(sealer, { ...stored, uid: 'u2' })).toEqual({ title: null, values: null });
    expect(openSubmissionColumns(sealer, { ...stored, data_key: sealer.forNew().wrapped })).toEqual({ title: null, values: null });
  });

  it('opens rows sealed before the title moved in with the values (a GCM-wrapped key, the title apart)', () => {
    // The first sealed form, written here as it was written then.
    const dataKey = Buffer.alloc(32, 9);
    const wrapped = `secret.${sealBytes(kek.key, dataKey, Buffer.from('svc:data-key')).toString('base64url')}`;
    const row = { uid: 'u3', title: sealText(dataKey, 'Ann Lee', 'submission:u3:title'), values: sealText(dataKey, '{"firstName":"Ann"}', 'submission:u3'), data_key: wrapped };
    expect(openSubmissionColumns(sealer, row)).toEqual({ title: 'Ann Lee', values: '{"firstName":"Ann"}' });
    // Rotation rewraps such a key into the current form, and the row still opens.
    const rotated = sealer.rewrap(wrapped) as string;
    expect(rotated).toMatch(/^secret\.[A-Za-z0-9_-]{64}$/);
    expect(openSubmissionColumns(sealer, { ...row, data_key: rotated })).toEqual({ title: 'Ann Lee', values: '{"firstName":"Ann"}' });
  });

  it('reads a legacy plain row as it is, and an envelope whose title length lies as unopenable', () => {
    expect(openSubmissionColumns(sealer, { uid: 'u4', title: 'Plain', values: '{}', data_key: null })).toEqual({ title: 'Plain', values: '{}' });
    const seal = sealer.forNew();
    const lying = { uid: 'u5', title: '', values: seal.sealText('99:short{}', 'submission:u5:title+values'), data_key: seal.wrapped };
    expect(openSubmissionColumns(sealer, lying)).toEqual({ title: null, values: null });
  });
});
