import type { ReactNode } from 'react';

/**
 * A chart for the eye with its figures as a table for screen readers. `inert` rather than aria-hidden
 * alone: recharts makes its surface focusable, and a focusable element inside aria-hidden fails axe's
 * aria-hidden-focus rule (React 18 has no prop for it). The table is sr-only on a wrapper, since a table
 * keeps its content's width and would widen the page on a 360 px screen.
 */
export const ChartFrame = ({
  chart,
  caption,
  headers,
  rows,
}: {
  chart: ReactNode;
  caption: string;
  headers: readonly string[];
  /** The first cell heads its row. */
  rows: readonly (readonly string[])[];
}) => (
  <>
    <div aria-hidden="true" ref={(element) => element?.setAttribute('inert', '')}>
      {chart}
    </div>
    <div className="sr-only">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([head, ...cells], index) => (
            <tr key={`${head}-${index}`}>
              <th scope="row">{head}</th>
              {cells.map((cell, cellIndex) => (
                <td key={cellIndex}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  </>
);
