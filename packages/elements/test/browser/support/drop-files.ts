/** Dropping files on a drag-and-drop zone in Chromium, as a person dragging them from their desktop would. */
import type { Locator } from 'playwright-core';

export interface DroppedFile {
  readonly name: string;
  readonly type: string;
  readonly bytes: Buffer;
}

/**
 * Dispatches `dragover` and `drop` on `zone` with a DataTransfer holding `files`.
 *
 * @example
 * await dropFiles(form.locator('[data-field=portfolio] [part=dropzone]'), [{ name: 'photo.png', type: 'image/png', bytes: samplePng() }]);
 */
export async function dropFiles(zone: Locator, files: readonly DroppedFile[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') }));
  const dataTransfer = await zone.evaluateHandle((_zone, list) => {
    const transfer = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], f.name, { type: f.type }));
    }
    return transfer;
  }, payload);
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}
