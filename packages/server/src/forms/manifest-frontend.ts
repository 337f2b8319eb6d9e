/**
 * The `frontend {renderer, extension, config}` block of a manifest field (contract §2, §12): what
 * the official Freeform clients read to pick a built-in renderer and to mount an extension. The
 * renderer keys are theirs (`dropdown`, `radios`, `file-dnd`, …); React mounts an extension only
 * when `extension` is set, and file-dnd only with both URLs in `config`.
 */
import { DEFAULT_FILE_COUNT, acceptForFileKinds, wireFieldType, type Field, type Form, type ManifestFieldFrontend, type PaymentField, type TableField } from '@svc/core';
import { paymentFrontendConfig, type PaymentManifestOptions } from '../payments/payment-manifest.js';

/** Extensions of the official package (`requiredExtensions[].name` must be one of them). */
const EXTENSIONS_PACKAGE = '@solspace/freeform-extensions';

function renderer(field: Field): string {
  switch (field.type) {
    // A dynamic-recipients field is a dropdown, radios or checkboxes to whoever renders it.
    case 'dynamicRecipients':
      return field.showAsRadio ? 'radios' : field.showAsCheckboxes ? 'checkboxes' : 'dropdown';
    case 'mailingList':
      return field.hidden ? 'hidden' : 'checkbox';
    default:
      return wireFieldType(field);
  }
}

function extension(field: Field): string | null {
  if (field.type === 'file') return field.dragAndDrop ? 'file-dnd' : null;
  if (field.type === 'table' || field.type === 'signature') return field.type;
  // React mounts an extension only when `extension` is set (contract §12).
  if (field.type === 'payment') return 'payment.stripe';
  return null;
}

/** Table columns as the official table renderer reads them (`metadata.fileCount` for file cells). */
function tableColumns(field: TableField) {
  return field.columns.map((column) => ({
    label: column.label,
    type: column.type === 'string' ? 'text' : column.type,
    value: column.type === 'checkbox' ? '1' : (column.value ?? ''),
    options: column.options ?? null,
    placeholder: null,
    checked: false,
    required: column.required ?? false,
    metadata: column.type === 'file' ? { fileCount: column.fileCount ?? DEFAULT_FILE_COUNT } : {},
  }));
}

function extraConfig(form: Form, field: Field, ceilingKB: number, payments: PaymentManifestOptions | null): Record<string, unknown> {
  switch (field.type) {
    case 'payment':
      return paymentFrontendConfig(form, field as Field & PaymentField, payments);
    case 'file': {
      const maxFiles = field.fileCount ?? DEFAULT_FILE_COUNT;
      const maxKB = Math.min(field.maxFileSizeKB ?? ceilingKB, ceilingKB);
      const base = `/svc/api/forms/${form.handle}/files/${field.handle as string}`;
      return {
        accept: acceptForFileKinds(field.fileKinds) ?? null,
        maxFiles,
        multiple: maxFiles > 1,
        maxFileSizeBytes: maxKB * 1024,
        ...(field.dragAndDrop ? { uploadUrl: base, deleteUrl: `${base}/delete` } : {}),
      };
    }
    case 'table':
      return {
        columns: tableColumns(field),
        ...(field.maxRows !== undefined ? { limitRows: 'max', maxRows: field.maxRows } : {}),
      };
    case 'confirmation': {
      const target = form.fieldsByHandle.get(field.target);
      return { targetType: target ? wireFieldType(target) : 'text' };
    }
    case 'datetime': {
      // Native inputs post ISO values, which the server reads whatever the display format.
      const kind = field.dateTimeType ?? 'date';
      return { useNativeTypes: true, nativeInputType: kind === 'both' ? 'datetime-local' : kind };
    }
    default:
      return {};
  }
}

export function buildFrontend(
  form: Form,
  field: Field,
  config: Readonly<Record<string, unknown>>,
  ceilingKB: number,
  payments: PaymentManifestOptions | null = null,
): ManifestFieldFrontend {
  return { renderer: renderer(field), extension: extension(field), config: { ...config, ...extraConfig(form, field, ceilingKB, payments) } };
}

/** `requiredExtensions` (contract §2): one per extension the fields use, never fatal for a client. */
export function requiredExtensions(frontends: readonly ManifestFieldFrontend[]) {
  const names = [...new Set(frontends.map((f) => f.extension).filter((name): name is string => name !== null))];
  return names.map((name) => ({
    name,
    package: EXTENSIONS_PACKAGE,
    version: '^0.1.0',
    // Every field svc serves also works without its extension (a plain file input, the table and
    // signature renderers), so a client that lacks one is warned, not stopped.
    // …but a payment cannot be taken without its extension.
    severity: name === 'payment.stripe' ? 'error' : 'warning',
    fallback: name === 'file-dnd' ? 'native' : null,
  }));
}
