import type { Style } from '@react-pdf/types';
import { signedShare } from '../pdf-format';
import { pdf } from '../react-pdf';
import { colors, text } from './theme';

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

/**
 * One headline figure with its changes against earlier periods. Few nodes (react-pdf's cost is
 * per node and per text): the label and value are one text, the change lines another beside one
 * drawing of their arrows.
 */
export const KpiCard = (props: { label: string; value: string; changes: KpiChange[]; note?: string }) => (
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

export const KpiRow = ({ children }: { children: React.ReactNode }) => (
  <pdf.View style={styles.row}>{children}</pdf.View>
);
