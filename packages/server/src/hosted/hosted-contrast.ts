/**
 * WCAG 2.x contrast (issue #36 item 2): relative luminance of sRGB colours and the ratio of two,
 * so a theme's colour pairs are checked, not hoped. Text needs 4.5:1 (SC 1.4.3), the boundaries
 * and focus rings of controls 3:1 (SC 1.4.11).
 */

/** `#rrggbb` (or `#rgb`), the only colour syntax theme tokens accept. */
export const HEX_COLOUR = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';

export const TEXT_CONTRAST = 4.5;
export const UI_CONTRAST = 3;

function channels(hex: string): readonly [number, number, number] {
  const digits = hex.slice(1);
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  return [0, 2, 4].map((at) => parseInt(full.slice(at, at + 2), 16) / 255) as unknown as [number, number, number];
}

/**
 * @example
 * relativeLuminance('#ffffff'); // 1
 */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The contrast ratio of two colours, 1 to 21, whichever is lighter.
 *
 * @example
 * contrastRatio('#000000', '#ffffff'); // 21
 */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
