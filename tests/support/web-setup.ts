/**
 * Setup for the "web" vitest project (happy-dom): jest-dom matchers, a clean DOM between
 * tests, and the browser APIs Mantine uses that happy-dom lacks or stubs.
 */
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

// A route's first render loads its lazy module; on a busy machine that alone can pass
// Testing Library's 1 s default, so findBy/waitFor wait up to 5 s (they return as soon as they can).
configure({ asyncUtilTimeout: 5_000 });

// Files share their worker's window (the project runs without isolation: vitest.config.ts), so each
// test starts where a fresh window starts: the environment's URL, vitest's happy-dom default (a
// navigation in an earlier file can leave about:blank).
const startUrl = "http://localhost:3000/";
beforeEach(() => {
  if (window.location.href !== startUrl) {
    (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(startUrl);
  }
});

afterEach(() => {
  cleanup();
  // A tab's own storage (form drafts, the remembered gym) does not carry into the next test.
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

// matchMedia: answers min-/max-width queries against the window's width, so a test can set a
// phone-sized window (`window.innerWidth = 375`) and Mantine's responsive hooks follow it.
function matches(query: string): boolean {
  const width = window.innerWidth;
  const min = /min-width:\s*([\d.]+)(px|em)/.exec(query);
  const max = /max-width:\s*([\d.]+)(px|em)/.exec(query);
  const px = (m: RegExpExecArray) => Number(m[1]) * (m[2] === "em" ? 16 : 1);
  if (min && width < px(min)) return false;
  if (max && width > px(max)) return false;
  return Boolean(min || max);
}

Object.defineProperty(window, "matchMedia", {
  writable: true,
  configurable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList,
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!("ResizeObserver" in window)) {
  Object.defineProperty(window, "ResizeObserver", {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

class IntersectionObserverStub {
  readonly root = null;
  readonly rootMargin = "";
  readonly thresholds: number[] = [];
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
globalThis.IntersectionObserver ??= IntersectionObserverStub as unknown as typeof IntersectionObserver;

if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};
window.scrollTo = (() => {}) as typeof window.scrollTo;
