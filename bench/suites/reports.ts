/**
 * Suite `reports` (issue 14): every reports benchmark in one run, each part in its own file beside
 * this one (reports-sheets.ts, and the PDF and schedule parts as they land). A part is added to
 * `parts` below; its parameters join the suite's, so `npm run bench -- reports --customers=20000`
 * reaches the part that knows `customers`. Each part also runs alone under its own file name.
 */
import type { BenchSuite, Figure, SuiteContext } from '../harness';
import { suite as sheets } from './reports-sheets';

type Part = Pick<BenchSuite, 'name' | 'params' | 'run'>;

const parts: Part[] = [sheets];

export const suite: BenchSuite = {
  name: 'reports',
  description: `Reports of issue 14: ${parts.map((part) => part.name).join(', ')}`,
  params: Object.assign({}, ...parts.map((part) => part.params)) as Record<string, number>,
  run: async (params: Record<string, number>, context: SuiteContext): Promise<Figure[]> => {
    const figures: Figure[] = [];
    for (const part of parts) {
      context.log(`part ${part.name}`);
      const own = Object.fromEntries(
        Object.keys(part.params).map((name) => [name, params[name] ?? part.params[name] ?? 0]),
      );
      figures.push(...(await part.run(own, context)));
    }
    return figures;
  },
};
