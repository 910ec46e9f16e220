/**
 * Largest Contentful Paint of the first pages people see, in Chromium through the Chrome DevTools
 * Protocol (playwright-core): the join site's register page from a gym's link and the staff
 * `/login`, with the CPU slowed 4× and a slow-3G-like network (150 ms latency, 1.6 Mbps down,
 * 750 kbps up), cold cache. The product runs as `npm start` runs it (local server, gzip as
 * CloudFront). Median of three loads each.
 */
import { launchBrowser, startProduct } from "../support/e2e";

interface Row {
  figure: string;
  value: string;
  budget: string;
  ok: boolean | null;
}

const network = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

export async function lcpBench(rows: Row[]) {
  const product = await startProduct();
  const browser = await launchBrowser();
  try {
    const gymLink = product.output().match(/https?:\/\/localhost:\d+\/\?gym=[\w-]+/)?.[0];
    const joinUrl = gymLink
      ? `${product.joinUrl}/${gymLink.slice(gymLink.indexOf("?"))}`
      : `${product.joinUrl}/`;
    const measure = async (url: string) => {
      const figures: number[] = [];
      for (let i = 0; i < 3; i++) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
        await cdp.send("Network.emulateNetworkConditions", network);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
        await page.goto(url, { waitUntil: "load", timeout: 60_000 });
        await page.waitForTimeout(1_000);
        const lcp = await page.evaluate(
          () =>
            new Promise<number>((done) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries();
                done(entries[entries.length - 1]?.startTime ?? Number.NaN);
              }).observe({ type: "largest-contentful-paint", buffered: true });
              setTimeout(() => done(Number.NaN), 5_000);
            }),
        );
        figures.push(lcp);
        await context.close();
      }
      return figures.sort((a, b) => a - b)[1];
    };
    const join = await measure(joinUrl);
    rows.push({
      figure: "join / (a gym's link): LCP, 4× CPU, 150 ms + 1.6 Mbps (median of 3)",
      value: `${(join / 1000).toFixed(2)} s`,
      budget: "< 1.5 s",
      ok: join < 1_500,
    });
    const staff = await measure(`${product.staffUrl}/login`);
    rows.push({
      figure: "staff /login: LCP, 4× CPU, 150 ms + 1.6 Mbps (median of 3)",
      value: `${(staff / 1000).toFixed(2)} s`,
      budget: "reported",
      ok: null,
    });
  } finally {
    await browser.close();
    await product.stop();
  }
}
