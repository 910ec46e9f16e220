import { type CSSVariablesResolver, darken, type MantineTheme } from "@mantine/core";

/**
 * WCAG 2.2 AA contrast (1.4.3: 4.5:1 for text) for both sites, in one place: Mantine's light
 * colour scheme draws coloured text and white-on-colour fills from fixed shades, and several
 * fall short (white on teal 7 is 3.1:1, green 9 text 4.4:1, dimmed gray 6 is 3.3:1, placeholders
 * gray 5 are 2.1:1). Each colour's variables are replaced by the lightest shade that passes
 * against the backgrounds it is drawn on, darkened further where even shade 9 does not.
 * axe-core checks every page of both sites (tests/e2e/a11y.test.ts, join.test.ts).
 */
/** 4.5:1 and a little margin: antialiased small text reads lighter than its colour. */
const TARGET = 4.6;

const WHITE = "#ffffff";

function channel(hex: string, at: number) {
  const v = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

function hex(color: string): string {
  if (color.startsWith("#") && color.length === 7) return color.toLowerCase();
  if (color.startsWith("#") && color.length === 4)
    return `#${[...color.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  const rgb = color
    .match(/\d+(\.\d+)?/g)
    ?.slice(0, 3)
    .map(Number) ?? [0, 0, 0];
  return `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
}

function relativeLuminance(color: string) {
  const h = hex(color);
  return 0.2126 * channel(h, 1) + 0.7152 * channel(h, 3) + 0.0722 * channel(h, 5);
}

/** The WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The first of `shades` that reaches the target against every background; failing that the
 * last, darkened step by step until it does.
 */
function readable(shades: string[], backgrounds: string[]): string {
  const passes = (c: string) => backgrounds.every((bg) => contrastRatio(c, bg) >= TARGET);
  const found = shades.find(passes);
  if (found) return found;
  let color = hex(shades[shades.length - 1]);
  for (let step = 0; step < 20 && !passes(color); step++) color = hex(darken(color, 0.05));
  return color;
}

function lightSchemeColours(theme: MantineTheme): Record<string, string> {
  const gray = theme.colors.gray;
  // Pages are white cards on gray 0; tables stripe and highlight rows with gray 1.
  const surfaces = [WHITE, gray[0], gray[1]];
  const primaryShade = typeof theme.primaryShade === "object" ? theme.primaryShade.light : theme.primaryShade;
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === "dark") continue;
    const list = [...shades];
    // White text on the fill (filled buttons, badges, the active page in a pager).
    const filled = readable(list.slice(primaryShade), [WHITE]);
    // Coloured text on the page (Text c="red", outline buttons, anchors).
    const text = readable(list.slice(7), surfaces);
    // Text on the colour's light fill (light buttons and badges, alerts).
    const onLight = readable(list.slice(9), [list[1], list[2]]);
    variables[`--mantine-color-${name}-filled`] = filled;
    variables[`--mantine-color-${name}-filled-hover`] = hex(darken(filled, 0.12));
    variables[`--mantine-color-${name}-text`] = text;
    variables[`--mantine-color-${name}-outline`] = text;
    variables[`--mantine-color-${name}-light-color`] = onLight;
  }
  return {
    ...variables,
    "--mantine-color-anchor": variables[`--mantine-color-${theme.primaryColor}-text`],
    "--mantine-color-dimmed": readable([gray[6], gray[7]], surfaces),
    "--mantine-color-error": variables["--mantine-color-red-text"],
    // Placeholders need 4.5:1 too, yet should stay lighter than typed text (gray 9).
    "--mantine-color-placeholder": readable([gray[6]], [WHITE]),
  };
}

/** For `MantineProvider`'s `cssVariablesResolver`: the light scheme's colours made readable. */
export const contrastResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: lightSchemeColours(theme),
  dark: {},
});
