import type { Db } from 'mongodb';
import { contentTypeOf, type ArchivedReportType } from '../../../contracts/api/reports';
import type { RenderedReport } from '../rendered-report';
import {
  customerForecastLayout,
  loadArForecastData,
  monthlyForecastLayout,
  weeklyForecastLayout,
} from './ar-forecast-sheet';
import { customerReviewLayout, loadCustomerReviewRows } from './customer-review-sheet';
import { customerSheetLayout, loadCustomerSheetRows } from './customer-sheet';
import { loadPrioritizedInvoiceRows, prioritizedInvoicesLayout } from './prioritized-invoices-sheet';
import { loadProductSheetRows, productSheetLayout } from './product-sheet';
import { readSheetContext, type SheetContext } from './sheet-context';
import { createSheetWriter, isoDay, safeFileName, type SheetWriter } from './sheet-writer';

/**
 * The XLSX reports of issue 14 (docs/adr/0037-report-sheets-and-email.md). Each render reads what it
 * needs (read models and ledger), writes one workbook through sheet-writer.ts and answers a
 * RenderedReport for the archive and the email. The customer review sheet has no report type of its
 * own: it is a worksheet of the CUSTOMER_SHEET workbook (alone in it when only the review is asked for).
 */
export type SheetInclude = {
  customerSheet?: boolean;
  customerReviewSheet?: boolean;
  productSheet?: boolean;
  prioritizedInvoices?: boolean;
  forecast?: boolean;
};

export type SheetRequest = { sellerId: number; asOf: Date };

const titles: Record<Extract<ArchivedReportType, `${string}_SHEET`>, string> = {
  CUSTOMER_SHEET: 'Customer Sheet',
  PRODUCT_SHEET: 'Product Sheet',
  PRIORITIZED_INVOICES_SHEET: 'Prioritized Invoices',
  AR_FORECAST_SHEET: 'AR Forecast',
};

const workbookFor = (
  context: SheetContext,
  book: { asOf: Date; title: string; description: string },
): { writer: SheetWriter; done: (type: keyof typeof titles) => Promise<RenderedReport> } => {
  const { asOf, title, description } = book;
  const day = isoDay(asOf);
  const writer = createSheetWriter(
    { title: `${context.sellerName} - ${title}`, subject: `As of ${day}`, description, asOf },
    context.currency,
  );
  return {
    writer,
    done: async (type) => ({
      type,
      extension: 'xlsx',
      fileName: `${safeFileName(`${context.sellerName} - ${title} - ${day}`)}.xlsx`,
      displayName: `${title} ${day}`,
      contentType: contentTypeOf.xlsx,
      bytes: await writer.finish(),
    }),
  };
};

const contextOf = async (db: Db, request: SheetRequest, context?: SheetContext) =>
  context ?? (await readSheetContext(db, request.sellerId));

/**
 * CUSTOMER_SHEET: the Customers worksheet, and the Customer Review worksheet when `review` is asked
 * for (only that one when `customers` is false).
 */
export const renderCustomerSheet = async (
  db: Db,
  request: SheetRequest & { customers?: boolean; review?: boolean },
  known?: SheetContext,
): Promise<RenderedReport> => {
  const context = await contextOf(db, request, known);
  const withCustomers = request.customers ?? true;
  const withReview = request.review ?? false;
  const { rows, metricsAsOf } = await loadCustomerSheetRows(db, context, request.asOf);
  const day = isoDay(request.asOf);
  const metricsNote =
    metricsAsOf === null
      ? 'No metrics run yet: balances, aging, DSO and risk are empty.'
      : isoDay(metricsAsOf) === day
        ? ''
        : ` Balances, aging, DSO, days late, risk and 36-month sales are from the metrics run as of ${isoDay(metricsAsOf)}.`;
  const title = withCustomers ? titles.CUSTOMER_SHEET : 'Customer Review Sheet';
  const book = workbookFor(context, {
    asOf: request.asOf,
    title,
    description: `Customers of ${context.sellerName} as of ${day}, amounts in ${context.currency}.${metricsNote}`,
  });
  if (withCustomers) {
    const layout = customerSheetLayout(context);
    await book.writer.addSheet(
      { name: 'Customers', columns: layout.columns, frozenColumns: 2 },
      mapped(rows, layout.cells),
    );
  }
  if (withReview) {
    const review = await loadCustomerReviewRows(db, context, { asOf: request.asOf, customers: rows });
    const layout = customerReviewLayout(context);
    await book.writer.addSheet(
      { name: 'Customer Review', columns: layout.columns, frozenColumns: 2 },
      mapped(review, layout.cells),
    );
  }
  return book.done('CUSTOMER_SHEET');
};

export const renderProductSheet = async (
  db: Db,
  request: SheetRequest,
  known?: SheetContext,
): Promise<RenderedReport> => {
  const context = await contextOf(db, request, known);
  const rows = await loadProductSheetRows(db, context, request.asOf);
  const layout = productSheetLayout(request.asOf);
  const book = workbookFor(context, {
    asOf: request.asOf,
    title: titles.PRODUCT_SHEET,
    description: `Revenue by product and month of ${context.sellerName} up to ${isoDay(request.asOf)}, in ${context.currency}.`,
  });
  await book.writer.addSheet(
    { name: 'Products', columns: layout.columns, frozenColumns: 2 },
    mapped(rows, layout.cells),
  );
  return book.done('PRODUCT_SHEET');
};

export const renderPrioritizedInvoicesSheet = async (
  db: Db,
  request: SheetRequest,
  known?: SheetContext,
): Promise<RenderedReport> => {
  const context = await contextOf(db, request, known);
  const rows = await loadPrioritizedInvoiceRows(db, context, request.asOf);
  const layout = prioritizedInvoicesLayout();
  const book = workbookFor(context, {
    asOf: request.asOf,
    title: titles.PRIORITIZED_INVOICES_SHEET,
    description: `Open overdue invoices of ${context.sellerName} as of ${isoDay(request.asOf)}, ranked by open amount x days overdue; amounts in ${context.currency}.`,
  });
  await book.writer.addSheet(
    { name: 'Prioritized Invoices', columns: layout.columns, frozenColumns: 2 },
    mapped(rows, layout.cells),
  );
  return book.done('PRIORITIZED_INVOICES_SHEET');
};

/** AR_FORECAST_SHEET, or null while the seller has no collections forecast. */
export const renderArForecastSheet = async (
  db: Db,
  request: SheetRequest,
  known?: SheetContext,
): Promise<RenderedReport | null> => {
  const context = await contextOf(db, request, known);
  const data = await loadArForecastData(db, context);
  if (!data) return null;
  const { forecast } = data;
  const beyond = (forecast.beyondHorizon / 100).toFixed(2);
  const book = workbookFor(context, {
    asOf: request.asOf,
    title: titles.AR_FORECAST_SHEET,
    description: `Collections forecast of ${context.sellerName} issued ${forecast.issuedAt.slice(0, 10)} on data as of ${forecast.asOf.slice(0, 10)} (${forecast.method}): ${forecast.openInvoices} open invoices; ${beyond} ${context.currency} not expected within ${forecast.weeks.length} weeks.`,
  });
  const weekly = weeklyForecastLayout();
  await book.writer.addSheet(
    { name: 'Weekly', columns: weekly.columns, frozenColumns: 1 },
    weekly.rows(forecast),
  );
  const monthly = monthlyForecastLayout();
  await book.writer.addSheet(
    { name: 'Monthly', columns: monthly.columns, frozenColumns: 1 },
    monthly.rows(forecast),
  );
  if (data.customers.length > 0) {
    const customers = customerForecastLayout(forecast);
    await book.writer.addSheet(
      { name: 'Customers', columns: customers.columns, frozenColumns: 2 },
      mapped(data.customers, customers.cells),
    );
  }
  return book.done('AR_FORECAST_SHEET');
};

/**
 * Every sheet `include` asks for, in a fixed order (customer, product, prioritized invoices,
 * forecast). The forecast sheet is left out while the seller has no forecast.
 */
export const renderSheets = async (
  db: Db,
  request: SheetRequest & { include: SheetInclude },
): Promise<RenderedReport[]> => {
  const { include } = request;
  if (!Object.values(include).some(Boolean)) return [];
  const context = await readSheetContext(db, request.sellerId);
  const reports: RenderedReport[] = [];
  if (include.customerSheet || include.customerReviewSheet)
    reports.push(
      await renderCustomerSheet(
        db,
        {
          ...request,
          customers: include.customerSheet ?? false,
          review: include.customerReviewSheet ?? false,
        },
        context,
      ),
    );
  if (include.productSheet) reports.push(await renderProductSheet(db, request, context));
  if (include.prioritizedInvoices) reports.push(await renderPrioritizedInvoicesSheet(db, request, context));
  if (include.forecast) {
    const forecast = await renderArForecastSheet(db, request, context);
    if (forecast) reports.push(forecast);
  }
  return reports;
};

function* mapped<T>(
  rows: readonly T[],
  cells: (row: T) => ReturnType<ReturnType<typeof customerSheetLayout>['cells']>,
) {
  for (const row of rows) yield cells(row);
}
