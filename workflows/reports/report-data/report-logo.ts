import { Resvg } from '@resvg/resvg-js';
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';

/** A logo as the PDF draws it: react-pdf takes PNG and JPEG only. */
export type DrawableLogo = { contentType: 'image/png' | 'image/jpeg'; base64: string };

/**
 * SVG logos are rasterised this many pixels high: three times the 30 pt the header draws
 * (components/report-page.tsx), so the logo stays sharp when the PDF is printed or zoomed.
 */
export const SVG_LOGO_PIXELS_HIGH = 90;

/** The largest GIF frame converted (pixels); a bigger one is left out rather than decoded. */
const MAX_GIF_PIXELS = 4_000 * 4_000;

const png = (width: number, height: number, rgba: Uint8Array): Buffer => {
  const image = new PNG({ width, height });
  image.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  return PNG.sync.write(image);
};

/** A GIF's first frame (an animated logo shows its first picture), transparency kept. */
const gifToPng = (bytes: Buffer): Buffer => {
  const gif = new GifReader(bytes);
  if (gif.numFrames() < 1) throw new Error('the GIF has no frame');
  const { width, height } = gif;
  if (width * height > MAX_GIF_PIXELS) throw new Error(`the GIF is too large (${width} x ${height})`);
  const rgba = new Uint8Array(width * height * 4);
  gif.decodeAndBlitFrameRGBA(0, rgba);
  return png(width, height, rgba);
};

/**
 * An SVG drawn by resvg at SVG_LOGO_PIXELS_HIGH, keeping its aspect ratio and transparent
 * background. resvg fetches nothing: an external image or font URL in the file is ignored.
 */
const svgToPng = (bytes: Buffer): Buffer =>
  new Resvg(bytes, {
    fitTo: { mode: 'height', value: SVG_LOGO_PIXELS_HIGH },
  })
    .render()
    .asPng();

/**
 * The tenant's uploaded logo (one of the four types the logo upload accepts) as the PDF can draw it:
 * PNG and JPEG as they are, a GIF's first frame and an SVG converted to PNG. Null when the file
 * cannot be read: the header then shows the company's name alone, as without a logo.
 */
export const drawableLogo = (contentType: string, bytes: Buffer): DrawableLogo | null => {
  try {
    switch (contentType) {
      case 'image/png':
      case 'image/jpeg':
        return { contentType, base64: bytes.toString('base64') };
      case 'image/gif':
        return { contentType: 'image/png', base64: gifToPng(bytes).toString('base64') };
      case 'image/svg+xml':
        return { contentType: 'image/png', base64: svgToPng(bytes).toString('base64') };
      default:
        return null;
    }
  } catch {
    return null;
  }
};
