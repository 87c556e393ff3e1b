// Flat badges in the shields.io style: grey label, coloured message, 20 px high. Widths come
// from Verdana 11px advance widths so the SVG needs no font metrics at render time; textLength
// pins each text to its computed width, so another fallback font cannot overflow the box.
import { oneLine } from '../kernel/text.js';

/** Advance widths (px) of Verdana at 11px for printable ASCII 32..126. */
const VERDANA_11 = [
  3.87,
  4.33,
  5.05,
  9.0,
  6.99,
  11.84,
  7.99,
  2.95,
  4.99,
  4.99,
  6.99,
  9.0,
  4.0,
  4.99,
  4.0,
  4.99, // space ! " # $ % & ' ( ) * + , - . /
  6.99,
  6.99,
  6.99,
  6.99,
  6.99,
  6.99,
  6.99,
  6.99,
  6.99,
  6.99, // 0-9
  4.99,
  4.99,
  9.0,
  9.0,
  9.0,
  6.0,
  11.0, // : ; < = > ? @
  7.52,
  7.54,
  7.68,
  8.48,
  6.96,
  6.32,
  8.53,
  8.27,
  4.63,
  5.0,
  7.62,
  6.12,
  9.27,
  8.23,
  8.66,
  6.63,
  8.66,
  7.65,
  7.52,
  6.78,
  8.05,
  7.52,
  10.88,
  7.54,
  6.77,
  7.54, // A-Z
  4.99,
  4.99,
  4.99,
  9.0,
  6.99,
  6.99, // [ \ ] ^ _ `
  6.61,
  6.85,
  5.73,
  6.85,
  6.55,
  3.87,
  6.85,
  6.96,
  3.02,
  3.79,
  6.51,
  3.02,
  10.7,
  6.96,
  6.68,
  6.85,
  6.85,
  4.69,
  5.73,
  4.33,
  6.96,
  6.51,
  8.98,
  6.51,
  6.51,
  5.78, // a-z
  6.98,
  4.99,
  6.98,
  9.0, // { | } ~
];
/** Anything outside printable ASCII: about a wide lowercase letter. */
const OTHER = 7;

export function textWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    w += c >= 32 && c <= 126 ? VERDANA_11[c - 32]! : OTHER;
  }
  return Math.ceil(w);
}

/** shields.io named colours; the JSON endpoint carries the name, the SVG the hex. */
export const COLORS = {
  brightgreen: '#4c1',
  green: '#97ca00',
  yellowgreen: '#a4a61d',
  yellow: '#dfb317',
  orange: '#fe7d37',
  red: '#e05d44',
  blue: '#007ec6',
  lightgrey: '#9f9f9f',
} as const;
export type ColorName = keyof typeof COLORS;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Badges are one short line: control characters go, length is bounded. */
const clean = (s: string, max = 80) => oneLine(s, max);

const PAD = 5;
export const BADGE_HEIGHT = 20;

export interface Badge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: ColorName;
}

export function badge(label: string, message: string, color: ColorName): Badge {
  return { schemaVersion: 1, label: clean(label), message: clean(message), color };
}

/** Total pixel width of a badge's SVG. */
export function badgeWidth(b: Badge): number {
  return textWidth(b.label) + 2 * PAD + textWidth(b.message) + 2 * PAD;
}

export function badgeSvg(b: Badge): string {
  const lw = textWidth(b.label) + 2 * PAD;
  const mw = textWidth(b.message) + 2 * PAD;
  const w = lw + mw;
  const label = esc(b.label);
  const message = esc(b.message);
  const fill = COLORS[b.color];
  // Text is drawn at 10x and scaled down, as shields does, for sub-pixel placement.
  const text = (x: number, s: string, tw: number) =>
    `<text aria-hidden="true" x="${x * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${tw * 10}">${s}</text>` +
    `<text x="${x * 10}" y="140" transform="scale(.1)" fill="#fff" textLength="${tw * 10}">${s}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${BADGE_HEIGHT}" role="img" aria-label="${label}: ${message}">` +
    `<title>${label}: ${message}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${w}" height="${BADGE_HEIGHT}" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="${BADGE_HEIGHT}" fill="#555"/><rect x="${lw}" width="${mw}" height="${BADGE_HEIGHT}" fill="${fill}"/><rect width="${w}" height="${BADGE_HEIGHT}" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    text(lw / 2, label, lw - 2 * PAD) +
    text(lw + mw / 2, message, mw - 2 * PAD) +
    `</g></svg>`
  );
}
