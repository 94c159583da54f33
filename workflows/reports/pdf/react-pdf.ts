import type ReactPDF from '@react-pdf/renderer';

/**
 * @react-pdf/renderer, loaded once by the PDF process (pdf-process.ts). It is an ES module whose
 * layout engine (yoga) awaits its WebAssembly at the top level, so it cannot be require()d: only a
 * native import() loads it, which jest's module system cannot run (hence the separate process, ADR
 * 36). Components use `pdf.View`, `pdf.Text` and so on, which are set before any of them renders.
 */
export type ReactPdfModule = typeof ReactPDF;

export const pdf = {} as ReactPdfModule;

let loading: Promise<ReactPdfModule> | undefined;

export const loadReactPdf = (): Promise<ReactPdfModule> => {
  loading ??= import('@react-pdf/renderer').then((module) => {
    Object.assign(pdf, module);
    // Words are never split with hyphens: figures and names must read back as printed.
    pdf.Font.registerHyphenationCallback((word) => [word]);
    return pdf;
  });
  return loading;
};
