/**
 * Suite `reports` (issue 14): every reports benchmark in one run, each part in its own file beside
 * this one (reports-sheets.ts, and the PDF and schedule parts as they land). A part is added to
 * `parts` below; its parameters join the suite's under the part's name, since parts share names
 * with different defaults (`npm run bench -- reports --reports-sheets-customers=20000`). Each part
 * also runs alone under its own file name with its own parameter names.
 */
import type { BenchSuite, Figure, SuiteContext } from '../harness';
import { suite as pdfs } from './reports-pdf';
import { suite as schedule } from './reports-schedule';
import { suite as sheets } from './reports-sheets';

type Part = Pick<BenchSuite, 'name' | 'params' | 'run'>;

const parts: Part[] = [sheets, pdfs, schedule];

export const suite: BenchSuite = {
  name: 'reports',
  description: `Reports of issue 14: ${parts.map((part) => part.name).join(', ')}`,
  params: Object.fromEntries(
    parts.flatMap((part) =>
      Object.entries(part.params).map(([name, value]) => [`${part.name}-${name}`, value]),
    ),
  ),
  run: async (params: Record<string, number>, context: SuiteContext): Promise<Figure[]> => {
    const figures: Figure[] = [];
    for (const part of parts) {
      context.log(`part ${part.name}`);
      const own = Object.fromEntries(
        Object.entries(part.params).map(([name, value]) => [name, params[`${part.name}-${name}`] ?? value]),
      );
      figures.push(...(await part.run(own, context)));
    }
    return figures;
  },
};
