import type { ReportSection } from '../../../contracts/api/reports';
import type { BenchmarksData } from '../report-data/benchmarks-data';
import type { ClientPerformanceData } from '../report-data/client-performance-data';
import type { ReportData } from '../report-data/report-data';
import type { ScorecardData } from '../report-data/scorecard-data';
import type { WelcomeData } from '../report-data/welcome-data';

/**
 * What the PDF process is asked to draw: a document kind and its gathered data, plain JSON-able
 * values only (the data crosses a process boundary, see pdf-renderer.ts).
 */
export type PdfJob =
  | { kind: 'periodic'; data: ReportData }
  | { kind: 'welcome'; data: WelcomeData }
  | { kind: 'scorecard'; data: ScorecardData }
  | { kind: 'benchmarks'; data: BenchmarksData }
  | {
      kind: 'ondemand';
      sections: ReportSection[];
      data: ReportData;
      scorecard: ScorecardData | null;
      /** The benchmarks, or why there are none (too few peers). */
      benchmarks: BenchmarksData | { unavailable: string } | null;
    }
  | { kind: 'clientPerformance'; data: ClientPerformanceData };
