/**
 * The multipart submit body (interface.md §4.2, contract §7): the JSON payload in a `_svc` part,
 * the CSRF token in a `SVC_CSRF_TOKEN` field, files under `files[handle][]` and table cells under
 * `files[table][row][col][]`. Files are streamed into the store as they arrive; their ids are
 * then laid into `values` exactly where a drag-and-drop client would have put them.
 */
import type { FastifyRequest } from 'fastify';
import { FIELD_MESSAGES, SvcError, type Form } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { drainPart, multipartParts, type CsrfGate } from '../http/multipart-support.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';
import { assertJsonDepth } from '../http/json-body-parser.js';
import { randomToken, sha256 } from '../security/token-crypto.js';
import { idList, type ReceivedUploads } from '../submissions/submit-files.js';

const FILE_PART = /^files\[([A-Za-z][A-Za-z0-9_]{0,63})\](?:\[(\d{1,3})\]\[(\d{1,3})\])?(?:\[\])?$/;
/** A classic post's file inputs are named by the field: `cv`, `cv[]`, `table[row][col]` (contract §10). */
const CLASSIC_FILE_PART = /^([A-Za-z][A-Za-z0-9_]{0,63})(?:\[(\d{1,3})\]\[(\d{1,3})\])?(?:\[\])?$/;

interface Slot {
  readonly handle: string;
  readonly row: number | null;
  readonly column: number | null;
}

/**
 * A classic post read as multipart: text entries go to `collect` in order (the caller checks its
 * CSRF input through the gate before any file is stored), files are named by their field.
 */
export interface ClassicMultipart {
  collect(name: string, value: string): void;
}

export interface MultipartSubmit {
  readonly body: Record<string, unknown>;
  readonly uploads: ReceivedUploads;
}

function parseSlot(name: string, classic: boolean): Slot | null {
  const match = (classic ? CLASSIC_FILE_PART : FILE_PART).exec(name);
  if (!match) return null;
  const [, handle, row, column] = match;
  return { handle: handle as string, row: row === undefined ? null : Number(row), column: column === undefined ? null : Number(column) };
}

function asList(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return [...raw];
  if (raw === null || typeof raw !== 'object') return [];
  const list: unknown[] = [];
  for (const [key, value] of Object.entries(raw)) if (/^\d{1,3}$/.test(key)) list[Number(key)] = value;
  return list;
}

/** `values` with the received ids appended to the slots they were sent for. */
function withReceived(values: Record<string, unknown>, received: ReadonlyMap<string, { slot: Slot; ids: string[] }>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const { slot, ids } of received.values()) {
    if (slot.row === null || slot.column === null) {
      out[slot.handle] = [...idList(out[slot.handle]), ...ids];
      continue;
    }
    const rows = asList(out[slot.handle]);
    const cells = asList(rows[slot.row]);
    cells[slot.column] = [...idList(cells[slot.column]), ...ids];
    rows[slot.row] = Array.from(cells, (cell) => cell ?? null);
    out[slot.handle] = Array.from(rows, (row) => row ?? []);
  }
  return out;
}

function parseSvc(value: unknown): Record<string, unknown> {
  let parsed: unknown;
  if (typeof value === 'string') assertJsonDepth(value);
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : undefined;
  } catch {
    throw new SvcError('PAYLOAD_INVALID', 'The _svc part is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SvcError('PAYLOAD_INVALID', 'The _svc part must be a JSON object.');
  return parsed as Record<string, unknown>;
}

export async function readMultipartSubmit(
  ctx: Pick<AppContext, 'uploads'>,
  /** The form, or (a classic post, whose form is named by an entry) a function giving it once a file arrives. */
  form: Form | (() => Promise<Form>),
  request: FastifyRequest,
  gate: CsrfGate,
  classic: ClassicMultipart | null = null,
): Promise<MultipartSubmit> {
  let known: Form | null = typeof form === 'function' ? null : form;
  const formOf = async () => (known ??= await (form as () => Promise<Form>)());
  // Files of a multipart submit belong to this request alone: nobody holds this owner's token.
  const owner = { ownerHash: sha256(randomToken(32)), bindingHash: null };
  const received = new Map<string, { slot: Slot; ids: string[] }>();
  try {
    return await readParts(ctx, formOf, request, gate, owner, received, classic);
  } catch (error) {
    // A body refused part-way stores nothing: what it had delivered so far is taken back at once.
    for (const { slot, ids } of received.values()) {
      for (const id of ids) if (known) await ctx.uploads.delete(known, slot.handle, id, owner.ownerHash).catch(() => false);
    }
    throw error;
  }
}

async function readParts(
  ctx: Pick<AppContext, 'uploads'>,
  formOf: () => Promise<Form>,
  request: FastifyRequest,
  gate: CsrfGate,
  owner: { ownerHash: string; bindingHash: null },
  received: Map<string, { slot: Slot; ids: string[] }>,
  classic: ClassicMultipart | null,
): Promise<MultipartSubmit> {
  let body: Record<string, unknown> | null = null;
  const files: unknown[] = [];
  const errors: Record<string, string[]> = {};
  const refuse = (handle: string, message: string) => {
    const list = (errors[handle] ??= []);
    if (!list.includes(message)) list.push(message);
  };

  for await (const part of multipartParts(request)) {
    if (part.type === 'field') {
      if (classic) classic.collect(part.fieldname, typeof part.value === 'string' ? part.value : '');
      else if (part.fieldname === '_svc') body = parseSvc(part.value);
      else if (part.fieldname === CSRF_FIELD_NAME && typeof part.value === 'string') gate.offer(part.value);
      else throw new SvcError('PAYLOAD_INVALID', `Unknown part "${part.fieldname.slice(0, 64)}"; send _svc, ${CSRF_FIELD_NAME} and files[…].`);
      continue;
    }
    const slot = parseSlot(part.fieldname, classic !== null);
    const form = slot ? await formOf() : null;
    const target = slot && form && ctx.uploads.target(form, slot.handle, slot.column);
    if (!slot || !target) {
      await drainPart(part);
      throw new SvcError('PAYLOAD_INVALID', `"${part.fieldname.slice(0, 80)}" does not name a file field of this form.`);
    }
    // An empty file input still sends a part, with no name and no bytes: nothing was chosen.
    if (part.filename === '') {
      if ((await drainPart(part)) === 0) continue;
    }
    gate.require();
    const key = `${slot.handle}/${slot.row}/${slot.column}`;
    const entry = received.get(key) ?? { slot, ids: [] };
    received.set(key, entry);
    if (entry.ids.length >= target.maxCount) {
      await drainPart(part);
      refuse(slot.handle, FIELD_MESSAGES.tooManyFiles(target.maxCount));
      continue;
    }
    const result = await ctx.uploads.receive(form as Form, target, { stream: part.file, filename: part.filename }, owner, { digest: true });
    if (!result.ok) {
      refuse(slot.handle, result.message);
      continue;
    }
    entry.ids.push(result.upload.id);
    files.push([key, result.upload.size, result.upload.sha256]);
  }
  if (classic) body = { values: {} };
  if (body === null) throw new SvcError('PAYLOAD_INVALID', 'The multipart body needs a _svc part with the JSON payload.');
  const posted = (body.values ?? {}) as Record<string, unknown>;
  const values = posted !== null && typeof posted === 'object' && !Array.isArray(posted) ? withReceived(posted, received) : posted;
  return {
    body: { ...body, values },
    uploads: {
      ids: new Set([...received.values()].flatMap((e) => e.ids)),
      errors,
      fingerprint: [posted, files],
    },
  };
}
