/**
 * What svc holds about a person, as one zip (issue #37 item 4): `submissions.json` with every
 * submission of the subject the principal may read, in the admin API's detail shape (values,
 * files, deliveries, payment, notes where present), and each stored file under
 * `files/<submission>/<file id>-<name>`. Files are stored as they are (no compression: uploads are
 * mostly compressed already) and streamed, a chunk at a time, with the response's backpressure.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { getSubmission, type AdminServices, type SubmissionDetail } from '../admin/admin-service.js';
import type { AdminKey } from '../admin/admin-keys.js';
import type { Subject } from './privacy-blind-index.js';
import { findSubject } from './privacy-subjects.js';

interface ExportedFile extends Omit<SubmissionDetail['files'][number], 'downloadUrl'> {
  /** Where the bytes are in the zip; null when the store no longer has them. */
  readonly path: string | null;
}

/** A zip entry name with nothing a zip reader could take for a directory or a drive. */
function safeName(name: string): string {
  return name.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_').replace(/^\.+/, '_').slice(0, 120) || 'file';
}

/** The submissions found, their details and files; answers how many submissions went in. */
export async function exportSubject(services: AdminServices, key: AdminKey, subject: Subject): Promise<{ count: number; stream: Readable }> {
  const found = await findSubject(services.db, key, subject);
  const details: SubmissionDetail[] = [];
  for (const submission of found) details.push(await getSubmission(services, key, String(submission.id), ''));
  const stored = await services.uploads.listForSubmissions(found.map((s) => s.id));
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) out.destroy(error);
    else {
      out.write(chunk);
      if (final) out.end();
    }
  });
  const write = async () => {
    const files = new Map<number, ExportedFile[]>();
    for (const file of stored) {
      if (file.submissionId === null) continue;
      const body = await services.uploads.read(file);
      const path = body ? `files/${file.submissionId}/${file.publicId}-${safeName(file.name)}` : null;
      const list = files.get(file.submissionId) ?? [];
      list.push({ id: file.publicId, name: file.name, kind: file.kind, size: file.size, extension: file.extension, field: file.fieldHandle, path });
      files.set(file.submissionId, list);
      if (!body || !path) continue;
      const entry = new ZipPassThrough(path);
      zip.add(entry);
      for await (const chunk of body) {
        entry.push(chunk as Uint8Array);
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      entry.push(new Uint8Array(0), true);
    }
    const document = {
      subject,
      exportedAt: services.now().toISOString(),
      submissions: details.map((d) => ({ ...d, files: files.get(d.id) ?? [] })),
    };
    const json = new ZipDeflate('submissions.json', { level: 6 });
    zip.add(json);
    json.push(Buffer.from(`${JSON.stringify(document, null, 2)}\n`, 'utf8'), true);
    zip.end();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return { count: found.length, stream: out };
}
