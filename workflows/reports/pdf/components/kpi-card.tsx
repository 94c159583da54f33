import type { Style } from '@react-pdf/types';
import { signedShare } from '../pdf-format';
import { Children, isValidElement } from 'react';
import { pdf } from '../react-pdf';
import { boxStyle, drawText, fitsWidth, type Painter, type Run } from './paint';
import { colors, PAGE_PADDING, text } from './theme';

/** A change and which way is good: up for revenue and collections, down for receivables and DSO. */
export type KpiChange = { ratio: number | null; label: string; goodWhen: 'up' | 'down' };

/** Helvetica's line is 1.1 times its size: a label line (7.5 pt) is 8.25 pt high. */
const SMALL_LINE = 8.25;
/** Space above the value and above each change line. */
const VALUE_GAP = 4;
const CHANGE_GAP = 3;
const CHANGE_PITCH = SMALL_LINE + CHANGE_GAP;
const ARROW = 7;

const styles = {
  card: {
    flex: 1,
    backgroundColor: colors.panel,
    borderWidth: 1,
    borderColor: colors.faint,
    borderRadius: 4,
    padding: 8,
    marginRight: 6,
  },
  // The label's line is as high as the gap above the value: each line's glyphs sit at its top.
  label: { ...text.small, ...text.muted, lineHeight: `${SMALL_LINE + VALUE_GAP}pt` },
  value: { ...text.bold, fontSize: 13 },
  // The last change line's gap below is taken back, so the card ends where its text does.
  changes: { flexDirection: 'row', marginTop: CHANGE_GAP, marginBottom: -CHANGE_GAP },
  arrows: { marginRight: 2 },
  changeLines: { ...text.small, ...text.muted, lineHeight: `${CHANGE_PITCH}pt` },
  note: { ...text.small, ...text.muted, marginTop: CHANGE_GAP },
  row: { flexDirection: 'row', marginRight: -6, marginBottom: 16 },
} satisfies Record<string, Style>;

const arrowColor = (ratio: number, goodWhen: 'up' | 'down') =>
  ratio === 0 ? colors.neutral : ratio > 0 === (goodWhen === 'up') ? colors.good : colors.bad;

/**
 * The change arrows of a card's lines, one vector drawing: a triangle up or down, green when the
 * move is good, a bar for no change (the standard fonts have no arrow glyphs).
 */
const ChangeArrows = ({ changes }: { changes: KpiChange[] }) => (
  <pdf.Svg width={ARROW} height={changes.length * CHANGE_PITCH - CHANGE_GAP} style={styles.arrows}>
    {changes.map(({ ratio, goodWhen }, i) => {
      if (ratio === null) return null;
      const top = i * CHANGE_PITCH + (SMALL_LINE - ARROW) / 2;
      const fill = arrowColor(ratio, goodWhen);
      if (ratio === 0) return <pdf.Rect key={i} x={0} y={top + 2.8} width={ARROW} height={1.4} fill={fill} />;
      const points =
        ratio > 0
          ? [ARROW / 2, top, ARROW, top + ARROW, 0, top + ARROW]
          : [0, top, ARROW, top, ARROW / 2, top + ARROW];
      return <pdf.Polygon key={i} points={points.join(' ')} fill={fill} />;
    })}
  </pdf.Svg>
);

const changeLine = (change: KpiChange) =>
  change.ratio === null ? `n/a ${change.label}` : `${signedShare(change.ratio)} ${change.label}`;

type KpiCardProps = { label: string; value: string; changes: KpiChange[]; note?: string };

/**
 * One headline figure with its changes against earlier periods, laid out by react-pdf: what a
 * KpiRow draws when one of its texts would not fit on one line. Few nodes: the label and value
 * are one text, the change lines another beside one drawing of their arrows.
 */
export const KpiCard = (props: KpiCardProps) => (
  <pdf.View style={styles.card}>
    <pdf.Text>
      <pdf.Text style={styles.label}>{`${props.label.toUpperCase()}\n`}</pdf.Text>
      <pdf.Text style={styles.value}>{props.value}</pdf.Text>
    </pdf.Text>
    {props.changes.length > 0 && (
      <pdf.View style={styles.changes}>
        {props.changes.some((change) => change.ratio !== null) && <ChangeArrows changes={props.changes} />}
        <pdf.Text style={styles.changeLines}>{props.changes.map(changeLine).join('\n')}</pdf.Text>
      </pdf.View>
    )}
    {props.note !== undefined && <pdf.Text style={styles.note}>{props.note}</pdf.Text>}
  </pdf.View>
);

/** The card's sizes as laid out by react-pdf (styles above): border, padding and the lines. */
const BORDER = 1;
const PADDING = 8;
const CARD_GAP = 6;
/** The page's content box, which a row of cards fills: A4 is 595.28 points wide. */
const ROW_WIDTH = 595.28 - 2 * PAGE_PADDING;
const INSET = BORDER + PADDING;
const LABEL_LINE = SMALL_LINE + VALUE_GAP;
/** The value's line: 13 pt bold is 14.3 pt high. */
const VALUE_LINE = 13 * 1.1;
const ARROWS_WIDTH = ARROW + 2;
const labelRun: Run = { size: 7.5, color: colors.muted };
const valueRun: Run = { size: 13, bold: true, color: colors.ink };
const smallRun: Run = { size: 7.5, color: colors.muted };

/** How tall a card's content is: its label and value, then its change lines, then its note. */
const contentHeight = (card: KpiCardProps) =>
  LABEL_LINE +
  VALUE_LINE +
  (card.changes.length > 0 ? card.changes.length * CHANGE_PITCH : 0) +
  (card.note === undefined ? 0 : CHANGE_GAP + SMALL_LINE);

const hasArrows = (card: KpiCardProps) => card.changes.some((change) => change.ratio !== null);

/** Whether every text of the cards fits on one line of a card `width` wide. */
const cardsFit = (cards: KpiCardProps[], width: number) => {
  const inner = width - 2 * INSET;
  return cards.every(
    (card) =>
      fitsWidth([card.label.toUpperCase()], labelRun, inner) &&
      fitsWidth([card.value], valueRun, inner) &&
      fitsWidth(card.changes.map(changeLine), smallRun, inner - (hasArrows(card) ? ARROWS_WIDTH : 0)) &&
      (card.note === undefined || fitsWidth([card.note], smallRun, inner)),
  );
};

/**
 * A row of cards drawn in one Canvas where react-pdf would put them: cards as wide as each
 * other, as tall as the tallest, each line's glyphs at the top of its line.
 */
const paintCards = (cards: KpiCardProps[], width: number, height: number) => (painter: Painter) => {
  cards.forEach((card, i) => {
    const left = i * (width + CARD_GAP);
    // react-pdf's background fills the rounded box, its border is stroked inside it.
    painter.roundedRect(left, 0, width, height, 4).fill(colors.panel);
    painter
      .lineWidth(BORDER)
      .roundedRect(left + BORDER / 2, BORDER / 2, width - BORDER, height - BORDER, 4 - BORDER / 2)
      .stroke(colors.faint);
    const x = left + INSET;
    let top = INSET;
    drawText(painter, card.label.toUpperCase(), { run: labelRun, x: x, top: top });
    top += LABEL_LINE;
    drawText(painter, card.value, { run: valueRun, x: x, top: top });
    top += VALUE_LINE;
    const arrows = hasArrows(card);
    card.changes.forEach((change, j) => {
      const lineTop = top + CHANGE_GAP + j * CHANGE_PITCH;
      drawText(painter, changeLine(change), {
        run: smallRun,
        x: arrows ? x + ARROWS_WIDTH : x,
        top: lineTop,
      });
      if (change.ratio === null) return;
      const arrowTop = lineTop + (SMALL_LINE - ARROW) / 2;
      const fill = arrowColor(change.ratio, change.goodWhen);
      if (change.ratio === 0) painter.rect(x, arrowTop + 2.8, ARROW, 1.4).fill(fill);
      else if (change.ratio > 0)
        painter
          .polygon([x + ARROW / 2, arrowTop], [x + ARROW, arrowTop + ARROW], [x, arrowTop + ARROW])
          .fill(fill);
      else
        painter.polygon([x, arrowTop], [x + ARROW, arrowTop], [x + ARROW / 2, arrowTop + ARROW]).fill(fill);
    });
    if (card.changes.length > 0) top += card.changes.length * CHANGE_PITCH;
    if (card.note !== undefined) drawText(painter, card.note, { run: smallRun, x: x, top: top + CHANGE_GAP });
  });
  return null;
};

const rowGapStyle: Style = { marginBottom: 16 };

/**
 * A row of KpiCards. When each of their texts fits on one line (measured with the font's
 * metrics), the row is one Canvas drawn with pdfkit's calls (components/paint.ts): react-pdf
 * places one box instead of laying out four texts and a drawing per card. Otherwise the cards are
 * laid out by react-pdf.
 */
export const KpiRow = ({ children }: { children: React.ReactNode }) => {
  const cards = Children.toArray(children).flatMap((child) =>
    isValidElement<KpiCardProps>(child) && child.type === KpiCard ? [child.props] : [],
  );
  const width = (ROW_WIDTH + CARD_GAP) / Math.max(1, cards.length) - CARD_GAP;
  if (cards.length > 0 && cards.length === Children.count(children) && cardsFit(cards, width)) {
    const height = 2 * INSET + Math.max(...cards.map(contentHeight));
    return (
      <pdf.View style={rowGapStyle}>
        <pdf.Canvas style={boxStyle(ROW_WIDTH, height)} paint={paintCards(cards, width, height)} />
      </pdf.View>
    );
  }
  return <pdf.View style={styles.row}>{children}</pdf.View>;
};
