/**
 * The part of Vite's (Rollup's) plugin interface this plugin uses, written here so this package
 * needs no Vite of its own (each site has its Vite; their configs check it against the real type).
 */
interface OutputFile {
  type: string;
  source?: string | Uint8Array;
}
interface ShellPagesPlugin {
  name: string;
  apply: "build";
  enforce: "post";
  generateBundle(
    this: { emitFile(file: { type: "asset"; fileName: string; source: string }): string },
    options: unknown,
    bundle: Record<string, OutputFile>,
  ): void;
}

/**
 * A site's index.html may carry a prerendered first page (between `<!--shell-->` marks) that
 * paints before any JavaScript runs: the join site's register page, the staff site's sign-in
 * page. Only that page's paths get it (SHELL_PAGES in @gym/core/security/headers: the local
 * server and CloudFront's rewrite); every other path gets `app.html`, the same document without
 * the shell, so no page flashes another's content.
 */
export function withoutShell(html: string): string {
  return html.replace(/[ \t]*<!--shell-->[\s\S]*?<!--\/shell-->\n?/g, "");
}

/**
 * Moves the stylesheet links from the head to the end of the body, leaving in their place a
 * preload of each (fetched at once and early, at a stylesheet's priority, without holding back
 * the first paint).
 */
export function stylesheetsLast(html: string): string {
  const links = [...html.matchAll(/([ \t]*)<link rel="stylesheet"([^>]*)>(\n?)/g)];
  let out = html;
  for (const [link, indent, attributes, newline] of links)
    out = out.replace(link, `${indent}<link rel="preload" as="style"${attributes}>${newline}`);
  const moved = links.map(([link]) => `    ${link.trim()}\n`).join("");
  return out.replace("</body>", `${moved}  </body>`);
}

/**
 * Emits `app.html` (index.html without its shell). With `stylesAfterShell`, index.html's
 * stylesheets move to the end of its body: a shell styled by its own inline `<style>` then paints
 * without waiting for them (a stylesheet in the body holds back only what follows it), and the
 * app's module script still runs only once they are in (scripts wait for pending stylesheets).
 */
export function shellPages(options: { stylesAfterShell?: boolean } = {}): ShellPagesPlugin {
  return {
    name: "shell-pages",
    apply: "build",
    enforce: "post",
    generateBundle(_, bundle) {
      const index = bundle["index.html"];
      if (index?.type !== "asset") throw new Error("shell-pages: no index.html in the build");
      const html = String(index.source);
      this.emitFile({ type: "asset", fileName: "app.html", source: withoutShell(html) });
      if (options.stylesAfterShell) index.source = stylesheetsLast(html);
    },
  };
}
