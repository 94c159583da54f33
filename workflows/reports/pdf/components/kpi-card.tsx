import { signedShare } from '../pdf-format';
import { pdf } from '../react-pdf';
import { colors, text } from './theme';

/** A change and which way is good: up for revenue and collections, down for receivables and DSO. */
export type KpiChange = { ratio: number | null; label: string; goodWhen: 'up' | 'down' };

/** A change arrow drawn as a vector triangle (the standard fonts have no arrow glyphs). */
export const ChangeArrow = ({ ratio, goodWhen }: { ratio: number; goodWhen: 'up' | 'down' }) => {
  const up = ratio > 0;
  const color = ratio === 0 ? colors.neutral : up === (goodWhen === 'up') ? colors.good : colors.bad;
  return (
    <pdf.Svg width={7} height={7} viewBox="0 0 10 10" style={{ marginRight: 2 }}>
      {ratio === 0 ? (
        <pdf.Rect x={0} y={4} width={10} height={2} fill={color} />
      ) : (
        <pdf.Polygon points={up ? '5,0 10,10 0,10' : '0,0 10,0 5,10'} fill={color} />
      )}
    </pdf.Svg>
  );
};

const ChangeLine = ({ change }: { change: KpiChange }) => (
  <pdf.View style={{ flexDirection: 'row', alignItems: 'center', marginTop: 3 }}>
    {change.ratio !== null && <ChangeArrow ratio={change.ratio} goodWhen={change.goodWhen} />}
    <pdf.Text style={{ ...text.small, ...text.muted }}>
      {change.ratio === null ? `n/a ${change.label}` : `${signedShare(change.ratio)} ${change.label}`}
    </pdf.Text>
  </pdf.View>
);

/** One headline figure with its changes against earlier periods. */
export const KpiCard = (props: { label: string; value: string; changes: KpiChange[]; note?: string }) => (
  <pdf.View
    style={{
      flex: 1,
      backgroundColor: colors.panel,
      borderWidth: 1,
      borderColor: colors.faint,
      borderRadius: 4,
      padding: 8,
      marginRight: 6,
    }}
  >
    <pdf.Text style={{ ...text.small, ...text.muted, textTransform: 'uppercase' }}>{props.label}</pdf.Text>
    <pdf.Text style={{ ...text.bold, fontSize: 13, marginTop: 4 }}>{props.value}</pdf.Text>
    {props.changes.map((change) => (
      <ChangeLine key={change.label} change={change} />
    ))}
    {props.note !== undefined && (
      <pdf.Text style={{ ...text.small, ...text.muted, marginTop: 3 }}>{props.note}</pdf.Text>
    )}
  </pdf.View>
);

export const KpiRow = ({ children }: { children: React.ReactNode }) => (
  <pdf.View style={{ flexDirection: 'row', marginRight: -6, marginBottom: 16 }}>{children}</pdf.View>
);
