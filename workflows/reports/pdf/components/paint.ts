import type { Style } from '@react-pdf/types';
import { textWidth } from './text-width';

/**
 * Drawing fixed-size parts of a report (KPI cards, tables drawn by columns, charts) inside a
 * react-pdf `Canvas` node with pdfkit's own calls (docs/adr/0036-report-content.md): react-pdf
 * still lays out the document, its pages and what flows on them, and places the part as one box;
 * the part's texts are drawn where react-pdf would have put them, each one line at a known place,
 * without react-pdf's text engine (per-character itemisation, bidi, glyph runs and line breaking
 * for every text, one-line ones included). Shapes are pdfkit paths: the charts stay vectors.
 */

/** The calls react-pdf's Canvas painter forwards to pdfkit (@react-pdf/render, renderCanvas). */
export type Painter = {
  save(): Painter;
  restore(): Painter;
  rect(x: number, y: number, w: number, h: number): Painter;
  roundedRect(x: number, y: number, w: number, h: number, r: number): Painter;
  circle(x: number, y: number, r: number): Painter;
  polygon(...points: [number, number][]): Painter;
  moveTo(x: number, y: number): Painter;
  lineTo(x: number, y: number): Painter;
  lineWidth(width: number): Painter;
  fill(color?: string): Painter;
  stroke(color?: string): Painter;
  fillColor(color: string): Painter;
  strokeColor(color: string): Painter;
  fillOpacity(opacity: number): Painter;
  font(name: string, size?: number): Painter;
  text(text: string, x: number, y: number, options: { lineBreak: false; baseline: 'alphabetic' }): Painter;
};

/** A line of Helvetica (the reports' font, theme.ts): its size, weight and colour. */
export type Run = { size: number; bold?: boolean; color: string };

/**
 * react-pdf's standard fonts are 0.9 of their size above the baseline and 0.2 below (its font
 * store, @react-pdf/font); a line's glyphs sit at the top of a line taller than that, so a
 * line's baseline is 0.9 of the font size below the line's top.
 */
export const ASCENT = 0.9;

/** The width of a line of `run`'s font, as react-pdf measures it (0 when the metrics are missing). */
export const widthOf = (text: string, run: Run) => textWidth(text, run.size, run.bold ?? false) ?? 0;

/** Whether each text fits on one line of `width` (a point to spare); false without the metrics. */
export const fitsWidth = (texts: string[], run: Run, width: number) =>
  texts.every((text) => {
    const measured = textWidth(text, run.size, run.bold ?? false);
    return measured !== null && measured <= width - 1;
  });

/** Where a line of text goes: its font, the top of its line, and its start, end or centre. */
export type Place = { run: Run; x: number; top: number; align?: 'left' | 'right' | 'center' };

/**
 * Draws one line of text at `place`: its glyphs from the top of the line (baseline ASCENT of
 * the size below it), starting at `x` (left), ending at `x` (right) or centred on `x`.
 */
export const drawText = (painter: Painter, text: string, { run, x, top, align = 'left' }: Place) => {
  if (text === '') return;
  const left = align === 'left' ? x : align === 'right' ? x - widthOf(text, run) : x - widthOf(text, run) / 2;
  painter
    .font(run.bold ? 'Helvetica-Bold' : 'Helvetica', run.size)
    .fillColor(run.color)
    .fillOpacity(1)
    .text(text, left, top + ASCENT * run.size, { lineBreak: false, baseline: 'alphabetic' });
};

/** A Canvas node's style: its size, fixed. */
export const boxStyle = (width: number, height: number): Style => ({ width, height });
