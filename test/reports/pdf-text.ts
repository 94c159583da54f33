import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A PDF read back as a reader would: its text through poppler's pdftotext (which must exit 0, so
 * the file is a valid PDF) and its page count through pdfinfo.
 */
export const readPdf = async (bytes: Uint8Array): Promise<{ text: string; pages: number }> => {
  const dir = await mkdtemp(join(tmpdir(), 'report-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    await writeFile(file, bytes);
    const { stdout: text } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
    const { stdout: info } = await run('pdfinfo', [file]);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN);
    return { text, pages };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** Text with its line breaks and runs of spaces made single spaces: what a phrase search needs. */
export const flat = (text: string) => text.replace(/\s+/g, ' ');
