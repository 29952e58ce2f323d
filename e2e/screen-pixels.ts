import type { Page } from 'playwright-core';

export type Rgb = readonly [number, number, number];

/**
 * Colours at points of a PNG screenshot, decoded by the browser itself (createImageBitmap and a
 * canvas), so a test can assert what a visitor sees without an image library.
 */
export function pixelsAt(page: Page, png: Buffer, points: ReadonlyArray<readonly [number, number]>): Promise<Rgb[]> {
  return page.evaluate(
    async ({ base64, points }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      context.drawImage(bitmap, 0, 0);
      return points.map(([x, y]) => {
        const [r = 0, g = 0, b = 0] = context.getImageData(Math.round(x), Math.round(y), 1, 1).data;
        return [r, g, b] as [number, number, number];
      });
    },
    { base64: png.toString('base64'), points: points.map(([x, y]) => [x, y] as [number, number]) },
  );
}

/** `#rrggbb` as numbers. */
export function rgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Whether two colours match within `tolerance` per channel (antialiasing, colour management). */
export function near(actual: Rgb, expected: Rgb, tolerance = 3): boolean {
  return actual.every((channel, i) => Math.abs(channel - (expected[i] ?? 0)) <= tolerance);
}
