/**
 * A signature pad: a canvas drawn on with pointer events (mouse, pen, touch) and a clear
 * button; the value is the canvas as a PNG data URL, which is what @svc/core accepts.
 * Without a pointer, the name typed in "Type your name to sign" is drawn onto the canvas instead.
 * Deliberately simple: no smoothing, no undo.
 */
import { formatMessage } from '@svc/core';
import { h } from './dom-builder.js';
import { configNumber, configString, textOf, type ControlView, type FieldRenderContext } from './field-view.js';

function drawStored(canvas: HTMLCanvasElement, value: string): void {
  if (!value.startsWith('data:image/png;base64,')) return;
  const image = new Image();
  image.onload = () => canvas.getContext('2d')?.drawImage(image, 0, 0);
  image.src = value;
}

export function renderSignature(ctx: FieldRenderContext): ControlView {
  const { field } = ctx;
  const width = configNumber(field, 'width') ?? 400;
  const height = configNumber(field, 'height') ?? 100;
  const background = configString(field, 'backgroundColor') ?? '#ffffff';
  const canvas = h('canvas', {
    id: ctx.id,
    part: 'signature',
    width,
    height,
    tabindex: 0,
    role: 'img',
    'aria-label': `${field.label}: draw your signature with a mouse, pen or finger`,
  });
  // The look is the shadow stylesheet's (`canvas[part=signature]`); the field's own colours are
  // set through the CSSOM. A style attribute is refused by a CSP without 'unsafe-inline' (the
  // hosted pages' style-src), which left the pad without its border there (issue #36 item 2).
  const border = configString(field, 'borderColor');
  if (border) canvas.style.setProperty('--svc-signature-border', border);
  canvas.style.setProperty('--svc-signature-background', background);
  const pen = canvas.getContext('2d');
  const blank = () => {
    if (!pen) return;
    // The background is painted into the PNG so the stored image looks like what was signed on.
    pen.fillStyle = background;
    pen.fillRect(0, 0, width, height);
  };
  blank();
  drawStored(canvas, textOf(ctx.value));
  if (pen) {
    pen.strokeStyle = configString(field, 'penColor') ?? '#000000';
    pen.lineWidth = configNumber(field, 'penDotSize') ?? 2;
    pen.lineCap = 'round';
    pen.lineJoin = 'round';
  }
  let drawing = false;
  const point = (event: PointerEvent): [number, number] => {
    const box = canvas.getBoundingClientRect();
    // The canvas may be scaled down by CSS (max-width); map back to its own pixels.
    return [((event.clientX - box.left) * width) / (box.width || width), ((event.clientY - box.top) * height) / (box.height || height)];
  };
  canvas.addEventListener('pointerdown', (event) => {
    if (!pen) return;
    drawing = true;
    canvas.setPointerCapture?.(event.pointerId);
    const [x, y] = point(event);
    pen.beginPath();
    pen.moveTo(x, y);
    pen.lineTo(x + 0.01, y);
    pen.stroke();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!drawing || !pen) return;
    const [x, y] = point(event);
    pen.lineTo(x, y);
    pen.stroke();
  });
  const finish = () => {
    if (!drawing) return;
    drawing = false;
    ctx.change(canvas.toDataURL('image/png'));
  };
  // Keyboard signing: the typed name, written onto a blank canvas, is the signature image.
  const typedId = `${ctx.id}-typed`;
  const typed = h('input', { type: 'text', id: typedId, part: 'signature-typed', autocomplete: 'name' });
  typed.addEventListener('input', () => {
    blank();
    const name = typed.value.trim();
    if (!pen || name === '') {
      ctx.change('');
      return;
    }
    pen.save();
    pen.fillStyle = configString(field, 'penColor') ?? '#000000';
    pen.font = `italic ${Math.round(height * 0.4)}px cursive, serif`;
    pen.textBaseline = 'middle';
    pen.fillText(name, 12, height / 2, width - 24);
    pen.restore();
    ctx.change(canvas.toDataURL('image/png'));
  });
  canvas.addEventListener('pointerup', finish);
  canvas.addEventListener('pointercancel', finish);
  const clear = field.config.showClearButton === false
    ? null
    : h('button', { type: 'button', part: 'clear', class: 'secondary' }, formatMessage(ctx.session.language, 'element.clearSignature'));
  clear?.addEventListener('click', () => {
    blank();
    typed.value = '';
    ctx.change('');
  });
  return {
    layout: 'group',
    body: h('div', { class: 'signature' }, canvas, h('label', { for: typedId }, formatMessage(ctx.session.language, 'element.typeToSign')), typed, clear),
    described: [canvas, typed],
    focusTarget: () => canvas,
  };
}
