import { execFileSync } from 'node:child_process';
import { type Browser, chromium, type Page } from 'playwright-core';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it), or the one STRATA_CHROMIUM names. */
export function chromiumPath(): string {
  if (process.env.STRATA_CHROMIUM) return process.env.STRATA_CHROMIUM;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0]!;
  } catch {
    throw new Error('no Chromium found: install it (apt-get install -y chromium) or set STRATA_CHROMIUM to its path');
  }
}

/** Software WebGL (SwiftShader through ANGLE): the map draws without a GPU. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

/** A headless Chromium, closed when the test ends; `extraArgs` go on its command line. */
export async function launchBrowser(t: Teardown, extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS, ...extraArgs] });
  t.teardown(() => browser.close());
  return browser;
}

/** A page with what went wrong on it collected: console errors, uncaught errors and unhandled rejections. */
export interface WatchedPage {
  page: Page;
  /** Every console error and uncaught exception so far. */
  problems: string[];
}

/** Opens a 1280x800 page that records its console errors and uncaught errors. */
export async function openPage(
  browser: Browser,
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return { page, problems };
}

/** Goes to the UI and waits until it has drawn the graph and loaded its panels. */
export async function openUi(watched: WatchedPage, url: string): Promise<void> {
  await watched.page.goto(url);
  await watched.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
}

/** Pixels of the map (a screenshot of it, decoded in the page) whose color is within `tolerance` of `hex`. */
export async function countMapPixels(page: Page, hex: string, tolerance = 24): Promise<number> {
  const png = await page.locator('#map').screenshot();
  return page.evaluate(
    async ({ base64, hex, tolerance }) => {
      // The page's content security policy allows data: images (not data: fetches).
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - r!) <= tolerance && Math.abs(data[i + 1]! - g!) <= tolerance && Math.abs(data[i + 2]! - b!) <= tolerance) count += 1;
      }
      return count;
    },
    { base64: png.toString('base64'), hex, tolerance },
  );
}
