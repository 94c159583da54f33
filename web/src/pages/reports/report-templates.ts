import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  ReportTemplates,
  reportTemplatesKey,
  type ReportSection,
  type ReportTemplate,
} from '../../../../contracts/api/reports';
import { browserStateQueries, useBrowserState, useSaveBrowserState } from '../../api/queries/browser-state';
import { useAppServices } from '../../session/app-services-context';
import { useCurrentTenantId } from '../../session/session-query';

/** What each section of an on-demand report shows (docs/adr/0036-report-content.md). */
export const sectionLabels: Record<ReportSection, string> = {
  summary: 'Summary: the period in four figures',
  'revenue-collections': 'Revenue and collections by period',
  'receivables-aging': 'Open receivables and aging',
  'payment-habits': 'Customers whose payment habits changed',
  'invoices-to-chase': 'Invoices to chase first',
  'collections-forecast': 'Collections forecast',
  'health-score': 'Health score and its drivers',
  benchmarks: 'Benchmarks against industry peers',
};

/** The user's templates in this tenant; a stored value that no longer parses counts as none. */
export const useReportTemplates = () => {
  const state = useBrowserState(reportTemplatesKey);
  const value = state.data?.value;
  // Parsed once per stored value, so the templates keep their identity between renders.
  const templates = useMemo(() => {
    const parsed = ReportTemplates.safeParse(value ?? []);
    return parsed.success ? parsed.data : [];
  }, [value]);
  return { isPending: state.isPending, templates };
};

/** Saves the whole list (browser state is one JSON value) and shows it at once. */
export const useSaveReportTemplates = () => {
  const save = useSaveBrowserState(reportTemplatesKey);
  const queryClient = useQueryClient();
  const { api } = useAppServices();
  const tenantId = useCurrentTenantId();
  return async (templates: readonly ReportTemplate[]) => {
    await save.mutateAsync([...templates]);
    queryClient.setQueryData(browserStateQueries.one(api, { tenantId, key: reportTemplatesKey }).queryKey, {
      key: reportTemplatesKey,
      value: [...templates],
    });
  };
};

export const newTemplateId = () => crypto.randomUUID().toLowerCase();
